import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUuid } from '@fanpilot/contracts';
import type { Db } from '../db.ts';
import { DomainError } from '../errors.ts';
import { stopAlertEmails } from './settings.ts';

// One-click unsubscribe (RFC 8058): every alert and digest email carries a link signed for its
// creator and what it stops; following it needs no sign-in, and it never expires (an old email
// still unsubscribes). The signature is an HMAC with the server's secret.

export type UnsubscribeScope = 'alerts' | 'digest';

const mac = (secret: string, body: string) =>
  createHmac('sha256', `unsubscribe:${secret}`).update(body).digest('base64url').slice(0, 32);

/** The token of the unsubscribe link for `creatorId` and `scope`. */
export function unsubscribeToken(secret: string, creatorId: string, scope: UnsubscribeScope): string {
  const body = `${scope === 'alerts' ? 'a' : 'd'}.${creatorId}`;
  return `${body}.${mac(secret, body)}`;
}

const badLink = () =>
  new DomainError(
    'invalid',
    'invalid_unsubscribe_link',
    'This unsubscribe link is not valid. Change your notification settings in Fanpilot instead.',
  );

/** Who and what a token stops; refused when it was not signed here. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
): { creatorId: string; scope: UnsubscribeScope } {
  const [s, creatorId, signature] = token.split('.');
  if (!s || !creatorId || !signature || (s !== 'a' && s !== 'd') || !isUuid(creatorId)) throw badLink();
  const expected = Buffer.from(mac(secret, `${s}.${creatorId}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw badLink();
  return { creatorId, scope: s === 'a' ? 'alerts' : 'digest' };
}

/** Follows an unsubscribe link: the alert emails (or the digest) stop. Idempotent. */
export async function unsubscribeByToken(db: Db, secret: string, token: string): Promise<UnsubscribeScope> {
  const { creatorId, scope } = readUnsubscribeToken(secret, token);
  const creator = await db.selectFrom('creators').select('id').where('id', '=', creatorId).executeTakeFirst();
  if (!creator) throw badLink();
  await stopAlertEmails(db, creatorId, scope);
  return scope;
}
