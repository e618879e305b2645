/**
 * The one toast on screen (docs/product.md#shell: only one toast is shown at a time). A module-level store, so code
 * outside React (route loaders, mutation callbacks) can raise a toast, and a toast raised before
 * the Toaster mounts still shows once it does.
 */
export type ToastVariant = 'default' | 'success' | 'error';

export interface ToastInput {
  title: string;
  description?: string | undefined;
  variant?: ToastVariant | undefined;
  /** Milliseconds on screen; the Toaster's default (docs/product.md#shell: 5000 ms) when left out. */
  duration?: number | undefined;
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

type Listener = () => void;

let current: ToastItem | null = null;
let nextId = 1;
const listeners = new Set<Listener>();

function publish(next: ToastItem | null) {
  current = next;
  for (const listener of listeners) listener();
}

/** Shows a toast, replacing whatever toast is on screen. Returns its id. */
export function toast(input: ToastInput): number {
  const id = nextId++;
  publish({ ...input, id, open: true });
  return id;
}

/** Closes the toast with this id (or the current one); a newer toast is left alone. */
export function dismissToast(id?: number): void {
  if (!current || (id !== undefined && current.id !== id) || !current.open) return;
  publish({ ...current, open: false });
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToastSnapshot(): ToastItem | null {
  return current;
}
