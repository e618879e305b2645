import { randomUUID } from 'node:crypto';
import { KNOWLEDGE_FILE_EXTENSIONS } from '@fanpilot/contracts';
import { KNOWLEDGE_UPLOAD_PREFIX } from '@fanpilot/core';
import { badRequest } from '../errors.ts';
import { cleanFileName } from './knowledge.ts';

// Knowledge file uploads: their store keys (knowledge-uploads/{creatorId}/{uuid}/{file name}) and
// the file types allowed. The upload calls sign against these; adding a knowledge file and the
// sweep of unused uploads check them.

export { assertOwnUploadKey, KNOWLEDGE_UPLOAD_PREFIX } from '@fanpilot/core';
/** How long a pre-signed upload request (form POST or part PUT) stays valid. */
export const UPLOAD_URL_EXPIRES_SECONDS = 10 * 60;

/** The stored type of each allowed extension; the browser's own type must be this or unknown. */
export const MIME_BY_EXTENSION: Record<(typeof KNOWLEDGE_FILE_EXTENSIONS)[number], string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
export const UNKNOWN_TYPES = new Set(['', 'application/octet-stream']);

/** The extension and stored type of a knowledge file name, or a 400. */
export function knowledgeFileType(
  filename: string,
  type: string | undefined,
): { extension: string; mime: string } {
  const dot = filename.lastIndexOf('.');
  const extension = dot > 0 ? filename.slice(dot).toLowerCase() : '';
  const mime = MIME_BY_EXTENSION[extension as keyof typeof MIME_BY_EXTENSION];
  if (!mime) {
    throw badRequest(
      `Only ${KNOWLEDGE_FILE_EXTENSIONS.join(', ')} files can be uploaded.`,
      'unsupported_file',
    );
  }
  const given = (type ?? '').split(';')[0]!.trim().toLowerCase();
  if (!UNKNOWN_TYPES.has(given) && given !== mime) {
    throw badRequest(`A ${extension} file cannot have the type ${given.slice(0, 100)}.`, 'unsupported_file');
  }
  return { extension, mime };
}

/** A store key of our own for `filename`: the name kept readable but reduced to safe characters. */
export function newKnowledgeUploadKey(creatorId: string, filename: string): string {
  const clean = cleanFileName(filename);
  const dot = clean.lastIndexOf('.');
  const extension = clean.slice(dot).toLowerCase();
  const stem =
    clean
      .slice(0, dot)
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 100) || 'file';
  return `${KNOWLEDGE_UPLOAD_PREFIX}/${creatorId}/${randomUUID()}/${stem}${extension}`;
}
