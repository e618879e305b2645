import chardet from 'chardet';
import iconv from 'iconv-lite';
import { permanent } from './errors.ts';

/** Text in any common encoding: a BOM, a declared charset, strict UTF-8, or a detected legacy encoding. */
export function decodeText(bytes: Uint8Array, declared?: string | null): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.subarray(3).toString('utf8');
  if (buf[0] === 0xff && buf[1] === 0xfe) return iconv.decode(buf.subarray(2), 'utf-16le');
  if (buf[0] === 0xfe && buf[1] === 0xff) return iconv.decode(buf.subarray(2), 'utf-16be');
  const charset = declared?.trim().toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8' && iconv.encodingExists(charset)) {
    return iconv.decode(buf, charset);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    // Not UTF-8: let the detector name the legacy encoding.
  }
  const detected = chardet.detect(buf.subarray(0, 256 * 1024));
  if (detected && iconv.encodingExists(detected)) return iconv.decode(buf, detected);
  return iconv.decode(buf, 'windows-1252');
}

/** Plain text, or a refusal when the bytes are binary (NULs outside UTF-16). */
export function decodePlainText(bytes: Uint8Array): string {
  const head = bytes.subarray(0, 64 * 1024);
  const utf16Bom = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  if (!utf16Bom && head.includes(0)) {
    const guess = chardet.detect(head);
    if (guess?.startsWith('UTF-16')) return iconv.decode(Buffer.from(bytes), guess);
    throw permanent('This file is not plain text, though its name ends in .txt.');
  }
  return decodeText(bytes);
}

/** Collapses runs of spaces, keeps paragraph breaks. */
export function tidy(text: string): string {
  return text
    .replaceAll('\u0000', '')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
