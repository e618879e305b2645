import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useEffect, useRef } from 'react';
import { Button, buttonClasses } from './Button.tsx';
import { cn } from './cn.ts';
import { registerOpenDialog } from './dialog-stack.ts';

/**
 * While `open`, the dialog is on the stack of open dialogs, so Escape reaches it even when a toast
 * appeared after it (see dialog-stack.ts).
 */
function useOpenDialogEntry(open: boolean, onOpenChange: (open: boolean) => void) {
  const latest = useRef(onOpenChange);
  latest.current = onOpenChange;
  useEffect(() => {
    if (!open) return;
    return registerOpenDialog(() => latest.current(false));
  }, [open]);
}

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
  /**
   * The dialog keeps its height within the viewport and lays its children out as a column that
   * fills it (default false: the whole dialog scrolls). The children then choose what scrolls: a
   * body with `min-h-0 flex-1 overflow-y-auto` and a footer that stays in view.
   */
  fill?: boolean;
  className?: string;
}

const closeIcon = (
  <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor">
    <path d="M4 4l8 8M12 4l-8 8" strokeWidth="1.75" strokeLinecap="round" />
  </svg>
);

const closeButtonClass =
  'absolute top-3 right-3 rounded-md p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';
/** The slide-out sheet is a phone's: its close button is a 44 px tap target (record 0082). */
const sheetCloseButtonClass =
  'absolute top-2 right-2 inline-flex size-11 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/** A centred dialog (Radix Dialog): traps focus, closes on Escape, returns focus when closed. */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  closeLabel = 'Close',
  showCloseButton = true,
  fill = false,
  className,
}: ModalProps) {
  useOpenDialogEntry(open, onOpenChange);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fp-overlay fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content
          className={cn(
            'fp-modal fixed top-1/2 left-1/2 z-50 max-h-[90dvh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none',
            fill ? 'flex flex-col overflow-hidden' : 'overflow-y-auto',
            className,
          )}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title className="pr-8 text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          {description && (
            <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>
          )}
          <div className={fill ? 'mt-4 flex min-h-0 flex-1 flex-col' : 'mt-4'}>{children}</div>
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
  /**
   * Once the sheet has closed, before focus returns to the trigger; `event.preventDefault()` keeps
   * it from returning (a menu that moves focus to what was picked).
   */
  onCloseAutoFocus?: (event: Event) => void;
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
  onCloseAutoFocus,
}: SheetProps) {
  useOpenDialogEntry(open, onOpenChange);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fp-overlay fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={onCloseAutoFocus}
          className={cn(
            'fp-sheet fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white p-5 shadow-xl focus:outline-none',
            className,
          )}
        >
          <Dialog.Title className="pr-12 text-base font-semibold text-slate-900">{title}</Dialog.Title>
          <div className="mt-4 flex min-h-0 flex-1 flex-col">{children}</div>
          <Dialog.Close aria-label={closeLabel} className={sheetCloseButtonClass}>
            {closeIcon}
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The question, the dialog's title and accessible name, e.g. 'Are you sure you want to…?'. */
  question: string;
  /** More detail under the question (optional). */
  description?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** Runs when the confirm button is pressed; the dialog closes too. */
  onConfirm: () => void;
  /** A destructive action (deleting): the confirm button is red. Default true. */
  destructive?: boolean;
}

/**
 * Asks before an action (replaces the browser's window.confirm): a Radix Dialog with role
 * "alertdialog", named by its question. Focus starts on Cancel; Escape and Cancel close it without
 * acting; a click outside does nothing.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  question,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  destructive = true,
}: ConfirmDialogProps) {
  useOpenDialogEntry(open, onOpenChange);
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fp-overlay fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content
          role="alertdialog"
          className="fp-modal fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none"
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            cancelRef.current?.focus();
          }}
          onPointerDownOutside={(event) => event.preventDefault()}
        >
          <Dialog.Title className="text-base font-semibold text-slate-900">{question}</Dialog.Title>
          {description && (
            <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>
          )}
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <Dialog.Close ref={cancelRef} className={buttonClasses('secondary')}>
              {cancelLabel}
            </Dialog.Close>
            <Button
              variant={destructive ? 'danger' : 'primary'}
              onClick={() => {
                onOpenChange(false);
                onConfirm();
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
