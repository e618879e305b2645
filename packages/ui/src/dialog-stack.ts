/**
 * The dialogs open right now, oldest first, each with the way to close it. Radix gives Escape to the
 * newest "layer", and a toast is one too: a toast that shows up while a dialog is open would take
 * Escape from the dialog. The Toaster asks here first and hands Escape to the newest open dialog.
 */
type Close = () => void;

const open: { close: Close }[] = [];

/** Records an open dialog; the answer forgets it again (call it when the dialog closes). */
export function registerOpenDialog(close: Close): () => void {
  const entry = { close };
  open.push(entry);
  return () => {
    const index = open.indexOf(entry);
    if (index !== -1) open.splice(index, 1);
  };
}

/** Closes the newest open dialog; answers whether there was one. */
export function closeNewestDialog(): boolean {
  const newest = open.at(-1);
  if (!newest) return false;
  newest.close();
  return true;
}

/** How many dialogs are open (for tests). */
export function openDialogCount(): number {
  return open.length;
}
