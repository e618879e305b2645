import type { ConfirmDialogProps, ModalProps, SheetProps } from '@fanpilot/ui';
import { cloneElement, isValidElement, lazy, type ReactElement, Suspense, useRef } from 'react';

// The dialogs of @fanpilot/ui (Radix Dialog, its focus trap and scroll lock: ~15 KB gzipped with
// what they share with the toasts) load when a dialog first opens, not with the first screen
// (issue 39). Once opened, a dialog stays mounted, as before: what it holds survives a close.
const ui = () => import('@fanpilot/ui/Modal');
const LazyModal = lazy(() => ui().then((m) => ({ default: m.Modal })));
const LazyConfirmDialog = lazy(() => ui().then((m) => ({ default: m.ConfirmDialog })));
const LazySheet = lazy(() => ui().then((m) => ({ default: m.Sheet })));

/** True from the first render with `open` on. */
function useOpenedOnce(open: boolean): boolean {
  const once = useRef(false);
  if (open) once.current = true;
  return once.current;
}

/** A centred dialog (@fanpilot/ui's Modal), its code loaded when it first opens. */
export function Modal(props: ModalProps) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <LazyModal {...props} />
    </Suspense>
  );
}

/** Asks before an action (@fanpilot/ui's ConfirmDialog), its code loaded when it first opens. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <LazyConfirmDialog {...props} />
    </Suspense>
  );
}

/**
 * The slide-out panel (@fanpilot/ui's Sheet). Until it first opens only its trigger is on the page,
 * opening it as the Sheet's own trigger would; the Sheet then takes over, trigger included.
 */
export function Sheet(props: SheetProps) {
  const opened = useOpenedOnce(props.open);
  const trigger = isValidElement(props.trigger)
    ? cloneElement(props.trigger as ReactElement<Record<string, unknown>>, {
        'aria-haspopup': 'dialog',
        'aria-expanded': false,
        onClick: () => props.onOpenChange(true),
      })
    : props.trigger;
  if (!opened) return trigger;
  return (
    <Suspense fallback={trigger}>
      <LazySheet {...props} />
    </Suspense>
  );
}
