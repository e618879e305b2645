/**
 * Messages a fan typed while offline wait here until they can be sent. The page (on `online`,
 * on load, after a successful poll) and the service worker (Background Sync) may both flush; a
 * lock shared by every context of the origin makes the flushes run one at a time, and an item
 * leaves the store as soon as the server accepted it, so each message is sent once. Each item
 * carries its own id, sent as the Idempotency-Key, for the case where the answer got lost.
 *
 * Runs in the page and in the service worker: no DOM APIs here.
 */

export interface OutboxAttachment {
  filename: string;
  contentBase64: string;
  size: number;
  type: string;
}

export interface OutboxItem {
  id: string;
  creator: string;
  fanId: string;
  fanName?: string | undefined;
  message: string;
  attachment?: OutboxAttachment | undefined;
  createdAt: number;
}

export interface OutboxStore {
  list: () => Promise<OutboxItem[]>;
  put: (item: OutboxItem) => Promise<void>;
  remove: (id: string) => Promise<void>;
}

/** sent: the server has it. retry: try again later (offline, 5xx, 429). rejected: it will never be taken. */
export type SendOutcome = 'sent' | 'retry' | 'rejected';

export interface FlushResult {
  sent: OutboxItem[];
  rejected: OutboxItem[];
  remaining: number;
}

export type LockRunner = <T>(name: string, task: () => Promise<T>) => Promise<T>;

export const OUTBOX_LOCK = 'fanpilot-fan-outbox';
export const OUTBOX_SYNC_TAG = 'fanpilot-fan-outbox';

/** Runs tasks with the same name one after another within this context. */
export function createLocalLock(): LockRunner {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(name: string, task: () => Promise<T>) => {
    const previous = tails.get(name) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    tails.set(name, tail);
    void tail.then(() => {
      if (tails.get(name) === tail) tails.delete(name);
    });
    return run;
  };
}

interface WebLocks {
  request: <T>(name: string, callback: () => Promise<T>) => Promise<T>;
}

/** Web Locks reach across tabs and the service worker; without them, a lock for this context only. */
export function defaultLock(): LockRunner {
  const locks = (globalThis.navigator as { locks?: WebLocks } | undefined)?.locks;
  const local = createLocalLock();
  if (!locks || typeof locks.request !== 'function') return local;
  // The local lock as well keeps this context's flushes from queueing up many Web Lock requests.
  return <T>(name: string, task: () => Promise<T>) => local(name, () => locks.request(name, task));
}

export function createOutbox(store: OutboxStore, lock: LockRunner = defaultLock()) {
  const ordered = async () => (await store.list()).sort((a, b) => a.createdAt - b.createdAt);

  return {
    enqueue: (item: OutboxItem) => lock(OUTBOX_LOCK, () => store.put(item)),
    list: ordered,
    /** Sends waiting items oldest first; stops at the first that must wait so order is kept. */
    flush: (send: (item: OutboxItem) => Promise<SendOutcome>): Promise<FlushResult> =>
      lock(OUTBOX_LOCK, async () => {
        const items = await ordered();
        const result: FlushResult = { sent: [], rejected: [], remaining: 0 };
        for (const [index, item] of items.entries()) {
          let outcome: SendOutcome;
          try {
            outcome = await send(item);
          } catch {
            outcome = 'retry';
          }
          if (outcome === 'retry') {
            result.remaining = items.length - index;
            break;
          }
          await store.remove(item.id);
          result[outcome === 'sent' ? 'sent' : 'rejected'].push(item);
        }
        return result;
      }),
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

/** An outbox kept in memory, for tests and for browsers without IndexedDB. */
export function memoryOutboxStore(
  initial: OutboxItem[] = [],
): OutboxStore & { items: Map<string, OutboxItem> } {
  const items = new Map(initial.map((item) => [item.id, item]));
  return {
    items,
    list: async () => [...items.values()],
    put: async (item) => {
      items.set(item.id, item);
    },
    remove: async (id) => {
      items.delete(id);
    },
  };
}
