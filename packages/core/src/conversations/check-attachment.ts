import { FAN_ATTACHMENT_MAX_BYTES, FAN_ATTACHMENT_MIME_TYPES } from '@fanpilot/contracts';
import { fileTypeFromBuffer } from 'file-type';
import { DomainError } from '../errors.ts';

export interface CheckedAttachment {
  buffer: Buffer;
  mime: string;
  fileType: 'pdf' | 'image';
  filename: string;
}

/** Decodes a fan's attachment and checks it by content: an image or a PDF of at most 10 MB. */
export async function checkAttachment(filename: string, base64: string): Promise<CheckedAttachment> {
  const buffer = Buffer.from(base64, 'base64');
  if (buffer.length === 0) throw new DomainError('invalid', 'invalid_attachment', 'The attachment is empty.');
  if (buffer.length > FAN_ATTACHMENT_MAX_BYTES) {
    throw new DomainError('too_large', 'attachment_too_large', 'The attachment is larger than 10 MB.');
  }
  const type = await fileTypeFromBuffer(buffer);
  if (!type || !(FAN_ATTACHMENT_MIME_TYPES as readonly string[]).includes(type.mime)) {
    throw new DomainError(
      'invalid',
      'unsupported_attachment',
      'Only images (PNG, JPEG, GIF, WebP) and PDF files can be attached.',
    );
  }
  // Control characters and path separators never reach a header or a download name.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const safeName = filename.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim() || 'attachment';
  return {
    buffer,
    mime: type.mime,
    fileType: type.mime === 'application/pdf' ? 'pdf' : 'image',
    filename: safeName,
  };
}
