import { FAN_ATTACHMENT_MAX_BYTES } from '@fanpilot/contracts';
import { texts } from '../texts.ts';
import type { OutboxAttachment } from './outbox.ts';

export const ATTACHMENT_ACCEPT = 'image/*,application/pdf,.pdf';

/** Why a chosen file cannot be attached, or null when it can: photos and PDFs up to 10 MB. */
export function attachmentProblem(file: { name: string; type: string; size: number }): string | null {
  const isPdf = file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
  const isImage = file.type.startsWith('image/');
  if (!isPdf && !isImage) return texts.attachmentWrongType;
  if (file.size > FAN_ATTACHMENT_MAX_BYTES)
    return texts.attachmentTooLarge(Math.round(FAN_ATTACHMENT_MAX_BYTES / 1024 / 1024));
  return null;
}

export function readAttachment(file: File): Promise<OutboxAttachment> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.onload = () => {
      const dataUrl = String(reader.result ?? '');
      const comma = dataUrl.indexOf(',');
      if (comma < 0) return reject(new Error('unreadable'));
      resolve({
        filename: file.name.slice(0, 255) || 'attachment',
        contentBase64: dataUrl.slice(comma + 1),
        size: file.size,
        type: file.type,
      });
    };
    reader.readAsDataURL(file);
  });
}
