import { fileTypeFromBuffer } from 'file-type';
import { permanent } from './errors.ts';

export type KnowledgeFileKind = 'pdf' | 'docx' | 'doc' | 'txt';

export const KNOWLEDGE_FILE_KINDS: Record<string, KnowledgeFileKind> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.doc': 'doc',
  '.txt': 'txt',
};

export const MIME_BY_KIND: Record<KnowledgeFileKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  txt: 'text/plain',
};

const extensionOf = (name: string) => {
  const m = /\.[a-z0-9]+$/i.exec(name.trim());
  return m ? m[0].toLowerCase() : '';
};

/** UTF-16LE bytes of a name, as an OLE compound file stores its stream names. */
const utf16 = (s: string) => Buffer.from(s, 'utf16le');

export const isCompoundFile = (b: Uint8Array) =>
  b.length >= 8 && b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0;

/** Office's password protection wraps a DOCX in a compound file holding an EncryptedPackage stream. */
export const isEncryptedOoxml = (b: Uint8Array) =>
  isCompoundFile(b) && Buffer.from(b.buffer, b.byteOffset, b.byteLength).includes(utf16('EncryptedPackage'));

/**
 * What a knowledge file really is, judged by its content against the name it claims. Refuses, with a
 * reason, anything that is empty, of another type, or password-protected.
 */
export async function detectKnowledgeFile(bytes: Uint8Array, fileName: string): Promise<KnowledgeFileKind> {
  const claimed = KNOWLEDGE_FILE_KINDS[extensionOf(fileName)];
  if (!claimed) throw permanent('Only PDF, TXT, DOC and DOCX files can be added.');
  if (bytes.length === 0) throw permanent('The file is empty.');
  const type = await fileTypeFromBuffer(bytes);
  const label = claimed.toUpperCase();
  const notWhatItClaims = () =>
    permanent(
      `This file is not a real ${label} file${type ? ` (its content is ${type.ext.toUpperCase()})` : ''}.`,
    );
  switch (claimed) {
    case 'pdf':
      if (type?.ext === 'pdf') return 'pdf';
      throw notWhatItClaims();
    case 'docx':
    case 'doc':
      if (isEncryptedOoxml(bytes)) {
        throw permanent('This document is password-protected. Remove the password and upload it again.');
      }
      if (type?.ext === 'docx') return 'docx';
      if (type?.ext === 'cfb' && Buffer.from(bytes).includes(utf16('WordDocument'))) return 'doc';
      throw notWhatItClaims();
    case 'txt':
      if (type && !['xml', 'csv', 'tsv', 'json', 'svg', 'html'].includes(type.ext)) throw notWhatItClaims();
      return 'txt';
  }
}
