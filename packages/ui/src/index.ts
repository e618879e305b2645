export { Button, type ButtonProps, type ButtonSize, type ButtonVariant, buttonClasses } from './Button.tsx';
export { cn } from './cn.ts';
export {
  ConfirmDialog,
  type ConfirmDialogProps,
  Modal,
  type ModalProps,
  Sheet,
  type SheetProps,
} from './Modal.tsx';
export { Toaster, type ToasterProps } from './Toaster.tsx';
export {
  dismissToast,
  getToastSnapshot,
  subscribeToasts,
  type ToastInput,
  type ToastItem,
  type ToastVariant,
  toast,
} from './toast-store.ts';
