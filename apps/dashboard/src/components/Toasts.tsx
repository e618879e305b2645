import { getToastSnapshot, subscribeToasts } from '@fanpilot/ui';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { TEXT } from '../texts.ts';

const Toaster = lazy(() => import('@fanpilot/ui/Toaster').then((m) => ({ default: m.Toaster })));

/**
 * The toast region. On the landing page its code (Radix Toast) loads with the first toast; the
 * signed-in app mounts it at once (`eager`), so F8 finds the region from the start.
 */
export function Toasts({ eager }: { eager: boolean }) {
  const item = useSyncExternalStore(subscribeToasts, getToastSnapshot, getToastSnapshot);
  if (!eager && item === null) return null;
  return (
    <Suspense fallback={null}>
      <Toaster closeLabel={TEXT.common.close} label={TEXT.common.notification} />
    </Suspense>
  );
}
