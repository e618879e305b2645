import { createHash } from 'node:crypto';

/**
 * How every bearer token is kept (a browser's fan cookie, a creator's session, a transfer link):
 * only its SHA-256 hash, base64url. The one definition; nothing else hashes a token.
 */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');
