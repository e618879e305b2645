import { randomBytes } from 'node:crypto';
import { RESTORE_LINK_MINUTES } from '@fanpilot/contracts';
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { accessOpenSql } from '../entitlement.ts';
import { DomainError } from '../errors.ts';
import { queueMail } from '../mail-outbox.ts';
import { hashToken } from '../tokens.ts';

// A subscription belongs to an email: on a new browser the fan asks for a one-time link by email;
// opening it moves the subscriber's conversation to this browser (as a transfer link does) and the
// chat is theirs again.

/** The fragment key of a restore link (/pwa/:username#restore=<token>). */
export const RESTORE_FRAGMENT_KEY = 'restore';

/**
 * Mails a one-time restore link when `email` holds a subscription to the creator that still opens
 * the chat; otherwise nothing (the caller answers the same words either way). Returns whether a
 * mail was queued.
 */
export async function requestRestoreLink(
  db: Db,
  input: {
    creatorId: string;
    creatorName: string;
    creatorUsername: string;
    email: string;
    publicOrigin: string;
  },
  now: Date = new Date(),
): Promise<boolean> {
  const email = input.email.trim().toLowerCase();
  const sub = await db
    .selectFrom('fan_subscriptions as s')
    .select('s.id')
    .where('s.creator_id', '=', input.creatorId)
    .where(sql`lower(s.email)`, '=', email)
    .where(accessOpenSql('s', now))
    .executeTakeFirst();
  if (!sub) return false;
  const token = randomBytes(32).toString('base64url');
  await db.transaction().execute(async (trx) => {
    // Only the newest link works.
    await trx
      .deleteFrom('fan_restore_links')
      .where('creator_id', '=', input.creatorId)
      .where('email', '=', email)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('fan_restore_links')
      .values({
        token_hash: hashToken(token),
        creator_id: input.creatorId,
        email,
        expires_at: new Date(now.getTime() + RESTORE_LINK_MINUTES * 60_000),
      })
      .execute();
    const url = `${input.publicOrigin}/pwa/${encodeURIComponent(input.creatorUsername)}#${RESTORE_FRAGMENT_KEY}=${token}`;
    await queueMail(trx, {
      purpose: 'restore_link',
      to: email,
      subject: `Your subscription to ${input.creatorName}`,
      text: `Open this link on the device you want to chat on:\n\n${url}\n\nIt works once, for ${RESTORE_LINK_MINUTES} minutes. If you did not ask for it, ignore this email.`,
    });
  });
  return true;
}

/**
 * Redeems a restore link: this browser (`newCookieHash`) takes over the subscriber's conversation
 * (the newest one under that email or subscription), or starts one bound to the email. Works once,
 * until it expires.
 */
export async function redeemRestoreLink(
  db: Db,
  input: { token: string; newCookieHash: string; newFanKey: string },
  now: Date = new Date(),
): Promise<{ fanId: string; creator: string }> {
  return db.transaction().execute(async (trx) => {
    const link = await trx
      .selectFrom('fan_restore_links')
      .selectAll()
      .where('token_hash', '=', hashToken(input.token))
      .forUpdate()
      .executeTakeFirst();
    if (!link) throw new DomainError('not_found', 'not_found', 'This link is not valid. Ask for a new one.');
    if (link.used_at)
      throw new DomainError(
        'gone',
        'restore_used',
        'This link was already used. Each link works once: ask for a new one.',
      );
    if (new Date(link.expires_at) <= now)
      throw new DomainError('gone', 'restore_expired', 'This link has expired. Ask for a new one.');
    await trx.updateTable('fan_restore_links').set({ used_at: now }).where('id', '=', link.id).execute();
    const creator = await trx
      .selectFrom('creators')
      .select('username')
      .where('id', '=', link.creator_id)
      .executeTakeFirstOrThrow();
    // The subscriber's conversation: the one the subscription was bought from, or one that PROVED
    // the email (a link opened before). An email typed as a lead proves nothing and moves nothing.
    const fan = await trx
      .selectFrom('fans')
      .select(['id', 'fan_key', 'cookie_hash'])
      .where('creator_id', '=', link.creator_id)
      .where((eb) =>
        eb.or([
          eb('proved_email', '=', link.email),
          eb(
            'id',
            'in',
            eb
              .selectFrom('fan_subscriptions')
              .select('fan_id')
              .where('creator_id', '=', link.creator_id)
              .where(sql`lower(email)`, '=', link.email)
              .where('fan_id', 'is not', null)
              .$narrowType<{ fan_id: string }>(),
          ),
        ]),
      )
      .orderBy('last_seen_at', 'desc')
      .executeTakeFirst();
    if (fan) {
      // This conversation only (not the fan id's conversations with other creators), now this browser's.
      await trx
        .updateTable('fans')
        .set({ cookie_hash: input.newCookieHash, proved_email: link.email })
        .where('id', '=', fan.id)
        .execute();
      return { fanId: fan.fan_key, creator: creator.username };
    }
    // No conversation yet: this browser's fan id starts one that belongs to the email.
    await trx
      .insertInto('fans')
      .values({
        creator_id: link.creator_id,
        fan_key: input.newFanKey,
        cookie_hash: input.newCookieHash,
        email: link.email,
        proved_email: link.email,
      })
      .onConflict((oc) => oc.columns(['creator_id', 'fan_key']).doNothing())
      .execute();
    // Only this browser's own conversation takes the email (a fan id held by another browser does not).
    await trx
      .updateTable('fans')
      .set({ proved_email: link.email })
      .where('creator_id', '=', link.creator_id)
      .where('fan_key', '=', input.newFanKey)
      .where('cookie_hash', '=', input.newCookieHash)
      .execute();
    return { fanId: input.newFanKey, creator: creator.username };
  });
}
