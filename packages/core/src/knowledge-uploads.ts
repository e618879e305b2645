import { KNOWLEDGE_FILE_EXTENSIONS, UUID_SOURCE } from '@fanpilot/contracts';
import { DomainError } from './errors.ts';

// Knowledge file uploads go to the store under knowledge-uploads/{creatorId}/{uuid}/{file name}:
// a key names its owner, and a creator acts only on keys of their own.

export const KNOWLEDGE_UPLOAD_PREFIX = 'knowledge-uploads';

const KEY_SHAPE = new RegExp(
  `^${KNOWLEDGE_UPLOAD_PREFIX}/(${UUID_SOURCE})/${UUID_SOURCE}/[A-Za-z0-9._-]{1,120}$`,
);

/** Is `key` one of this creator's upload keys? A key of another shape or owner is refused. */
export function assertOwnUploadKey(creatorId: string, key: string): void {
  const match = KEY_SHAPE.exec(key);
  if (!match || match[1] !== creatorId) {
    throw new DomainError('forbidden', 'forbidden', 'This upload belongs to someone else.');
  }
}

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
    throw new DomainError(
      'invalid',
      'unsupported_file',
      `Only ${KNOWLEDGE_FILE_EXTENSIONS.join(', ')} files can be uploaded.`,
    );
  }
  const given = (type ?? '').split(';')[0]!.trim().toLowerCase();
  if (!UNKNOWN_TYPES.has(given) && given !== mime) {
    throw new DomainError(
      'invalid',
      'unsupported_file',
      `A ${extension} file cannot have the type ${given.slice(0, 100)}.`,
    );
  }
  return { extension, mime };
}
