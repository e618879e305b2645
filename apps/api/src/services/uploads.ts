import { randomUUID } from 'node:crypto';
import { cleanFileName, KNOWLEDGE_UPLOAD_PREFIX } from '@fanpilot/core';

// Knowledge file uploads: their store keys (knowledge-uploads/{creatorId}/{uuid}/{file name}) and
// the file types allowed. The upload calls sign against these; adding a knowledge file and the
// sweep of unused uploads check them.

export {
  assertOwnUploadKey,
  KNOWLEDGE_UPLOAD_PREFIX,
  knowledgeFileType,
  MIME_BY_EXTENSION,
  UNKNOWN_TYPES,
} from '@fanpilot/core';
/** How long a pre-signed upload request (form POST or part PUT) stays valid. */
export const UPLOAD_URL_EXPIRES_SECONDS = 10 * 60;

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
