import { getToastSnapshot, subscribeToasts } from '@fanpilot/ui';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { TEXT } from '../texts.ts';

const Toaster = lazy(() => import('@fanpilot/ui/Toaster').then((m) => ({ default: m.Toaster })));

/** Whether a toast has been shown in this page: the region stays mounted from then on. */
let shownOnce = false;

/**
 * The toast region. Its code (Radix Toast) loads with the first toast, on the landing page and in
 * the signed-in app alike, and stays mounted from then on: nothing of it weighs on a first screen
 * (issue 39). Radix announces each toast through a live region it adds when the toast opens, and
 * F8 moves focus to the region while a toast is there.
 */
export function Toasts() {
  const item = useSyncExternalStore(subscribeToasts, getToastSnapshot, getToastSnapshot);
  if (item !== null) shownOnce = true;
  if (!shownOnce) return null;
  return (
    <Suspense fallback={null}>
      <Toaster closeLabel={TEXT.common.close} label={TEXT.common.notification} />
    </Suspense>
  );
}
