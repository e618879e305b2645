import { createHmac, timingSafeEqual } from 'node:crypto';
import { urlOf } from '@fanpilot/contracts';

/** How long a download link of a cited file works after it is issued. */
export const CITED_FILE_LINK_SECONDS = 5 * 60;

/**
 * Signs and checks the short-lived links that download a knowledge file (docs/decisions/
 * 0019-a-creator-s-files-are-theirs.md). A link names the item and the second it expires at, signed with
 * HMAC-SHA256 under a key derived from the session secret: it cannot be made, extended or moved to
 * another file without the secret. Issued by the fanCitation call only, to the fan who was cited
 * the file (or its creator), and only while the creator allows downloads of it.
 */
export function citedFileLinks(sessionSecret: string) {
  const key = createHmac('sha256', sessionSecret).update('fanpilot:cited-file-download:v1').digest();
  const sign = (itemId: string, expires: number) =>
    createHmac('sha256', key).update(`${itemId}\n${expires}`).digest('base64url');
  return {
    /** A link to download `itemId` until `now` + CITED_FILE_LINK_SECONDS. */
    issue(itemId: string, now = Date.now()): { url: string; expiresAt: Date } {
      const expires = Math.floor(now / 1000) + CITED_FILE_LINK_SECONDS;
      const url = urlOf('citedFileDownload', { id: itemId }, { expires, signature: sign(itemId, expires) });
      return { url, expiresAt: new Date(expires * 1000) };
    },
    /** Whether the link's signature is ours for this item and expiry. */
    verify(itemId: string, expires: number, signature: string): boolean {
      const expected = Buffer.from(sign(itemId, expires));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    /** Seconds the link has left (0 or less: expired). */
    secondsLeft: (expires: number, now = Date.now()) => expires - Math.floor(now / 1000),
  };
}

export type CitedFileLinks = ReturnType<typeof citedFileLinks>;
