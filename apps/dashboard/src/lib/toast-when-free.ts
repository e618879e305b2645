import { getToastSnapshot, subscribeToasts, type ToastInput, toast } from '@fanpilot/ui';

/**
 * A toast for news nobody is waiting on (a knowledge source finished in the background): shown
 * once the toast on screen, if any, has gone, so it never replaces the answer to what the creator
 * just did (only one toast shows at a time, docs/product.md#shell).
 */
export function toastWhenFree(input: ToastInput): void {
  if (!getToastSnapshot()?.open) {
    toast(input);
    return;
  }
  const stop = subscribeToasts(() => {
    if (getToastSnapshot()?.open) return;
    stop();
    toast(input);
  });
}
