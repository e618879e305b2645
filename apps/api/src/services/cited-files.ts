import { createHmac, timingSafeEqual } from 'node:crypto';
import { urlOf } from '@fanpilot/contracts';

/** How long a download link of a cited file works after it is issued. */
export const CITED_FILE_LINK_SECONDS = 5 * 60;

/** How many switch-offs back a link is still told apart from a forged one (410, not 403). */
const EPOCHS_RECOGNISED = 20;

/**
 * Signs and checks the short-lived links that download a knowledge file (docs/decisions/
 * 0019-a-creator-s-files-are-theirs.md). A link names the item and the second it expires at, signed with
 * HMAC-SHA256 under a key derived from the session secret: it cannot be made, extended or moved to
 * another file without the secret. Issued by the fanCitation call only, to the fan who was cited
 * the file (or its creator), and only while the creator allows downloads of it. The file's download
 * epoch (raised at each switch-off of its downloads, record 0071) is signed too, though not written
 * in the link: a link issued before a switch-off no longer verifies once downloads are back on.
 * (Epoch 0 signs exactly what links signed before epochs existed.)
 */
export function citedFileLinks(sessionSecret: string) {
  const key = createHmac('sha256', sessionSecret).update('fanpilot:cited-file-download:v1').digest();
  const sign = (itemId: string, expires: number, epoch: number) =>
    createHmac('sha256', key)
      .update(epoch === 0 ? `${itemId}\n${expires}` : `${itemId}\n${expires}\n${epoch}`)
      .digest('base64url');
  const signedWith = (itemId: string, expires: number, epoch: number, signature: string) => {
    const expected = Buffer.from(sign(itemId, expires, epoch));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  return {
    /** A link to download `itemId` (at its download epoch) until `now` + CITED_FILE_LINK_SECONDS. */
    issue(itemId: string, epoch = 0, now = Date.now()): { url: string; expiresAt: Date } {
      const expires = Math.floor(now / 1000) + CITED_FILE_LINK_SECONDS;
      const url = urlOf(
        'citedFileDownload',
        { id: itemId },
        { expires, signature: sign(itemId, expires, epoch) },
      );
      return { url, expiresAt: new Date(expires * 1000) };
    },
    /**
     * The link's standing against the file's download epoch now: 'valid' (ours, for this item,
     * expiry and epoch), 'revoked' (ours, but issued before a later switch-off of downloads) or
     * 'invalid' (not ours).
     */
    check(
      itemId: string,
      expires: number,
      signature: string,
      epoch: number,
    ): 'valid' | 'revoked' | 'invalid' {
      if (signedWith(itemId, expires, epoch, signature)) return 'valid';
      for (let older = epoch - 1; older >= Math.max(0, epoch - EPOCHS_RECOGNISED); older--) {
        if (signedWith(itemId, expires, older, signature)) return 'revoked';
      }
      return 'invalid';
    },
    /** Seconds the link has left (0 or less: expired). */
    secondsLeft: (expires: number, now = Date.now()) => expires - Math.floor(now / 1000),
  };
}

export type CitedFileLinks = ReturnType<typeof citedFileLinks>;
