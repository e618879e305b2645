import { UUID_SOURCE } from '@fanpilot/contracts';
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
