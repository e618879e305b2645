/**
 * A file's size in KB, as both apps show attachments (docs/product.md#conversation-modal): one decimal under 10 KB (at
 * least 0.1), whole KB above, with thousands separated; 0 KB for nothing or an unreadable size.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 KB';
  const kb = bytes / 1024;
  if (kb < 10) return `${Math.max(kb, 0.1).toFixed(1)} KB`;
  return `${Math.round(kb).toLocaleString('en-US')} KB`;
}
