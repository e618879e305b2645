import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from '@fanpilot/contracts';
import * as ToastPrimitive from '@radix-ui/react-toast';
import { useSyncExternalStore } from 'react';
import { cn } from './cn.ts';
import { closeNewestDialog } from './dialog-stack.ts';
import { dismissToast, getToastSnapshot, subscribeToasts, type ToastVariant } from './toast-store.ts';

const VARIANT_CLASSES: Record<ToastVariant, string> = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  error: 'border-red-300 bg-red-50 text-red-950',
};

export interface ToasterProps {
  /** Accessible name of the close button. */
  closeLabel?: string;
  /** Screen-reader label of each toast, e.g. 'Notification'. */
  label?: string;
}

/**
 * Renders the current toast with Radix Toast: 5 s on screen, swipe right past 50 px to dismiss,
 * F8 moves focus to the notification region. Mount once, near the root of the app.
 */
export function Toaster({ closeLabel = 'Close', label = 'Notification' }: ToasterProps) {
  const item = useSyncExternalStore(subscribeToasts, getToastSnapshot, getToastSnapshot);
  const variant = item?.variant ?? 'default';
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      label={label}
    >
      {item && (
        <ToastPrimitive.Root
          key={item.id}
          open={item.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          duration={item.duration ?? TOAST_DURATION_MS}
          // Escape belongs to an open dialog, even one opened before this toast (Radix would give it
          // to the toast, the newest layer): the dialog closes, the toast stays. With focus on the
          // toast itself (F8), Escape closes the toast.
          onEscapeKeyDown={(event) => {
            const onToast = event.target instanceof Element && event.target.closest('.fp-toast');
            if (!onToast && closeNewestDialog()) event.preventDefault();
          }}
          type={variant === 'error' ? 'foreground' : 'background'}
          className={cn(
            'fp-toast pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg',
            VARIANT_CLASSES[variant],
          )}
          data-variant={variant}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{item.title}</ToastPrimitive.Title>
            {item.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {item.description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label={closeLabel}
            className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current"
          >
            <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor">
              <path d="M4 4l8 8M12 4l-8 8" strokeWidth="1.75" strokeLinecap="round" />
            </svg>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport
        hotkey={['F8']}
        className="fixed top-0 right-0 z-[100] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none sm:top-auto sm:bottom-0"
      />
    </ToastPrimitive.Provider>
  );
}
