import { memoryOutboxStore, type OutboxItem, type OutboxStore } from './outbox.ts';

const DB_NAME = 'fanpilot-fan';
const STORE = 'outbox';

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function openDb(): Promise<IDBDatabase> {
  const request = indexedDB.open(DB_NAME, 1);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(STORE))
      request.result.createObjectStore(STORE, { keyPath: 'id' });
  };
  return promised(request);
}

/** The outbox in IndexedDB, shared by the page and the service worker. */
export function idbOutboxStore(): OutboxStore {
  if (typeof indexedDB === 'undefined') return memoryOutboxStore();
  let db: Promise<IDBDatabase> | undefined;
  const run = async <T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>) => {
    db ??= openDb();
    const tx = (await db).transaction(STORE, mode);
    // Resolves only once the change is durable, not merely requested.
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    const result = await promised(action(tx.objectStore(STORE)));
    await done;
    return result;
  };
  return {
    list: () => run('readonly', (store) => store.getAll() as IDBRequest<OutboxItem[]>),
    put: async (item) => {
      await run('readwrite', (store) => store.put(item));
    },
    remove: async (id) => {
      await run('readwrite', (store) => store.delete(id));
    },
  };
}
