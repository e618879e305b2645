import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Accessible name of the close (X) button. */
  closeLabel?: string;
  /**
   * Whether the corner close (X) button is shown (default true). A dialog whose own buttons already
   * include one named like it (e.g. a 'Close' button) hides it, so that name stays unique; Escape and
   * the overlay still close the dialog.
   */
  showCloseButton?: boolean;
  className?: string;
}

const closeIcon = (
  <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor">
    <path d="M4 4l8 8M12 4l-8 8" strokeWidth="1.75" strokeLinecap="round" />
  </svg>
);

const closeButtonClass =
  'absolute top-3 right-3 rounded-md p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/** A centred dialog (Radix Dialog): traps focus, closes on Escape, returns focus when closed. */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  closeLabel = 'Close',
  showCloseButton = true,
  className,
}: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fp-overlay fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content
          className={cn(
            'fp-modal fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl focus:outline-none',
            className,
          )}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title className="pr-8 text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          {description && (
            <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>
          )}
          <div className="mt-4">{children}</div>
          {showCloseButton && (
            <Dialog.Close aria-label={closeLabel} className={closeButtonClass}>
              {closeIcon}
            </Dialog.Close>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export interface SheetProps extends Omit<ModalProps, 'description' | 'showCloseButton'> {
  /** The button that opens the sheet. */
  trigger: ReactNode;
}

/** A panel sliding in from the left edge (a Radix Dialog): the mobile slide-out menu. */
export function Sheet({
  open,
  onOpenChange,
  title,
  children,
  closeLabel = 'Close',
  trigger,
  className,
}: SheetProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fp-overlay fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content
          aria-describedby={undefined}
          className={cn(
            'fp-sheet fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white p-5 shadow-xl focus:outline-none',
            className,
          )}
        >
          <Dialog.Title className="pr-8 text-base font-semibold text-slate-900">{title}</Dialog.Title>
          <div className="mt-4 flex min-h-0 flex-1 flex-col">{children}</div>
          <Dialog.Close aria-label={closeLabel} className={closeButtonClass}>
            {closeIcon}
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
