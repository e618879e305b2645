import { randomBytes } from 'node:crypto';
import { FAN_TRANSFER_FRAGMENT_KEY, FAN_TRANSFER_TTL_MINUTES } from '@fanpilot/contracts';
import { DomainError } from '../errors.ts';
import { fanTransfersRepository } from '../fan-transfers.ts';
import { fansRepository } from '../fans.ts';
import { type FanRequester, mayActAsFan } from '../rights.ts';
import { hashToken } from '../tokens.ts';
import { notThisBrowsers } from './fan-access.ts';
import { type ConversationPorts, now } from './ports.ts';

export const FAN_TRANSFER_TTL_MS = FAN_TRANSFER_TTL_MINUTES * 60 * 1000;

/**
 * A one-time link that moves this browser's conversation with `fanKey` to another browser. Only
 * the browser the conversation is bound to may make one; the link's token is kept hashed.
 */
export async function makeTransferLink(
  ports: ConversationPorts,
  who: FanRequester,
  input: { creatorId: string; creatorUsername: string; fanKey: string; publicOrigin: string },
): Promise<{ url: string; expiresAt: Date }> {
  const fan = await fansRepository(ports.db).findByKey(input.creatorId, input.fanKey);
  if (!fan)
    throw new DomainError(
      'not_found',
      'not_found',
      'There is no conversation to move yet. Send a message first.',
    );
  if (!mayActAsFan(who, fan, 'write') || !fan.cookie_hash) throw notThisBrowsers();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now(ports).getTime() + FAN_TRANSFER_TTL_MS);
  await fanTransfersRepository(ports.db).replace({
    tokenHash: hashToken(token),
    creatorId: input.creatorId,
    fanKey: input.fanKey,
    cookieHash: fan.cookie_hash,
    expiresAt,
  });
  const url = `${input.publicOrigin}/pwa/${encodeURIComponent(input.creatorUsername)}#${FAN_TRANSFER_FRAGMENT_KEY}=${token}`;
  return { url, expiresAt };
}
