import { randomBytes } from 'node:crypto';
import { FAN_TRANSFER_FRAGMENT_KEY, FAN_TRANSFER_TTL_MINUTES } from '@fanpilot/contracts';
import { creatorsRepository, fansRepository, fanTransfersRepository } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import { forbidden, HttpError, notFound } from '../errors.ts';
import { FAN_FORBIDDEN_MESSAGE, type FanRequester, mayActAsFan } from './conversations.ts';
import { hashFanToken } from './fan-identity.ts';

export const FAN_TRANSFER_TTL_MS = FAN_TRANSFER_TTL_MINUTES * 60 * 1000;

/**
 * A one-time link that moves this browser's conversation with `fanKey` to another browser. Only
 * the browser the conversation is bound to may make one; the link's token is kept hashed.
 */
export async function createFanTransfer(
  db: Kysely<Database>,
  who: FanRequester,
  options: { creatorId: string; creatorUsername: string; fanKey: string; publicOrigin: string; now?: Date },
): Promise<{ url: string; expiresAt: Date }> {
  const fan = await fansRepository(db).findByKey(options.creatorId, options.fanKey);
  if (!fan) throw notFound('There is no conversation to move yet. Send a message first.');
  if (!mayActAsFan(who, fan, 'write') || !fan.cookie_hash) throw forbidden(FAN_FORBIDDEN_MESSAGE);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date((options.now ?? new Date()).getTime() + FAN_TRANSFER_TTL_MS);
  await fanTransfersRepository(db).replace({
    tokenHash: hashFanToken(token),
    creatorId: options.creatorId,
    fanKey: options.fanKey,
    cookieHash: fan.cookie_hash,
    expiresAt,
  });
  const url = `${options.publicOrigin}/pwa/${encodeURIComponent(options.creatorUsername)}#${FAN_TRANSFER_FRAGMENT_KEY}=${token}`;
  return { url, expiresAt };
}

const transferGone = (code: string, message: string) => new HttpError(410, code, message);

/**
 * Redeems a transfer link: every conversation the old browser holds under the link's fan id is
 * bound to this browser's fan cookie (`newCookieHash`), and the old browser loses them. A link
 * works once, until it expires, and only while the old browser still holds the conversation.
 */
export async function redeemFanTransfer(
  db: Kysely<Database>,
  token: string,
  newCookieHash: string,
  now = new Date(),
): Promise<{ fanId: string; creator: string }> {
  return db.transaction().execute(async (trx) => {
    const transfers = fanTransfersRepository(trx);
    const transfer = await transfers.lockByTokenHash(hashFanToken(token));
    if (!transfer) {
      throw notFound('This transfer link is not valid. Make a new one on the device that has the chat.');
    }
    if (transfer.used_at) {
      throw transferGone(
        'transfer_used',
        'This transfer link was already used. Each link works once: make a new one on the device that has the chat.',
      );
    }
    if (new Date(transfer.expires_at).getTime() <= now.getTime()) {
      throw transferGone(
        'transfer_expired',
        'This transfer link has expired. Make a new one on the device that has the chat.',
      );
    }
    await transfers.markUsed(transfer.id);
    const moved = await fansRepository(trx).moveToBrowser(
      transfer.fan_key,
      transfer.cookie_hash,
      newCookieHash,
    );
    const creator = await creatorsRepository(trx).findById(transfer.creator_id);
    if (moved === 0 || !creator) {
      throw transferGone(
        'transfer_stale',
        'This chat has moved or been deleted since the link was made. Make a new link on the device that has the chat.',
      );
    }
    return { fanId: transfer.fan_key, creator: creator.username };
  });
}
