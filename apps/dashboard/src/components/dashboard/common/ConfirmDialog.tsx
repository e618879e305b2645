import { buttonClasses } from '@fanpilot/ui';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { TEXT } from '../../../texts.ts';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The question, e.g. 'Are you sure you want to delete this knowledge item?'. */
  question: string;
  confirmLabel?: string;
  onConfirm: () => void;
}

/**
 * Asks before something is deleted (Radix Alert Dialog): focus starts on Cancel, stays inside, and
 * Escape cancels.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  question,
  confirmLabel = TEXT.confirm.delete,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fp-overlay fixed inset-0 z-50 bg-slate-950/50" />
        <AlertDialog.Content className="fp-modal fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">
            {TEXT.confirm.title}
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-700">
            {question}
          </AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel className={buttonClasses('secondary')}>
              {TEXT.confirm.cancel}
            </AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClasses('danger')} onClick={onConfirm}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
