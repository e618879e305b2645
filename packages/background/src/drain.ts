import type { BackgroundLog } from './index.ts';

/**
 * One outbox drain at a time: `take` hands over one batch and says how many rows it took; the
 * drain repeats it until the outbox is empty. A wake-up during a drain runs it once more (a row
 * committed meanwhile is not left behind); a failure is logged and leaves the rows for the next.
 */
export function singleFlightDrain(take: () => Promise<number>, log: BackgroundLog, what: string) {
  let running: Promise<void> | null = null;
  let again = false;
  return (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while ((await take()) > 0) {
            // Until the outbox is empty.
          }
        } while (again);
      } catch (err) {
        log.warn({ err }, `${what} not drained; tried again shortly`);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}
