/**
 * Runs `task` every `intervalMs` (and at once with `now`), never two runs at a time; a failed run is
 * reported to `onError` and the next one goes ahead. The timer does not keep the process alive.
 * Returns a stop function.
 */
export function runEvery(
  intervalMs: number,
  task: () => Promise<void>,
  options: { now?: boolean; onError?: ((error: unknown) => void) | undefined } = {},
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await task();
    } catch (err) {
      options.onError?.(err);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  if (options.now) void tick();
  return () => clearInterval(timer);
}
