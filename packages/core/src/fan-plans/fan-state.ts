import type { FanPlanState } from '@fanpilot/contracts';
import type { FanRow } from '@fanpilot/db';
import { sql } from 'kysely';
import { notThisBrowsers } from '../conversations/fan-access.ts';
import type { Db } from '../db.ts';
import {
  accessOpen,
  accessUntil,
  accessUntilSql,
  circleAnswersThisMonthSql,
  freeAnswersLeft,
  holdsSubscriptionSql,
  pastFreeAllowance,
} from '../entitlement.ts';
import { DomainError } from '../errors.ts';
import { fansRepository } from '../fans.ts';
import { type FanRequester, mayActAsFan } from '../rights.ts';
import { fanPlanOf, planIsLive } from './settings.ts';

// A fan's place in the creator's plan: the allowance left, the paywall, the subscription.

/** The fan met the paywall (first time only): the conversion's denominator. */
export async function notePaywallMet(db: Db, fanId: string, at: Date): Promise<void> {
  await db
    .updateTable('fans')
    .set({ paywall_met_at: at })
    .where('id', '=', fanId)
    .where('paywall_met_at', 'is', null)
    .execute();
}

/** AI answers this fan's circle (its browser, its proved email) got since the start of the UTC month. */
export async function fanAnswersThisMonth(db: Db, fanId: string, now: Date): Promise<number> {
  const result = await sql<{
    n: string;
  }>`select ${circleAnswersThisMonthSql(sql`${fanId}`, now)} as n`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * The subscription that opens (or last opened) the chat for this fan: one its circle bought, or one
 * under an email its circle proved (entitlement.ts). A typed email reaches none.
 */
export async function fanSubscriptionOf(db: Db, fan: Pick<FanRow, 'id' | 'creator_id'>) {
  return db
    .selectFrom('fan_subscriptions as s')
    .selectAll('s')
    .where('s.creator_id', '=', fan.creator_id)
    .where(holdsSubscriptionSql('s', sql`${fan.id}`))
    .where(accessUntilSql('s'), 'is not', null)
    .orderBy(accessUntilSql('s'), 'desc')
    .executeTakeFirst();
}

/** A fan's conversation this browser may act for: not found before the fan's first message. */
export async function ownFan(db: Db, who: FanRequester, creatorId: string, fanKey: string) {
  const fan = await fansRepository(db).findByKey(creatorId, fanKey);
  if (!fan || fan.creator_id !== creatorId) {
    throw new DomainError('not_found', 'not_found', 'There is no conversation yet. Send a message first.');
  }
  if (!mayActAsFan(who, fan, 'write')) throw notThisBrowsers();
  return fan;
}

/** What the fan app shows of the creator's plan: the offer, free answers left, the paywall, the subscription. */
export async function fanPlanStateOf(
  db: Db,
  creator: { id: string; name: string; imageUrl: string | null },
  fan: Pick<FanRow, 'id' | 'creator_id' | 'email' | 'proved_email'> | undefined,
  now: Date = new Date(),
): Promise<FanPlanState> {
  const plan = await fanPlanOf(db, creator.id);
  const live = await planIsLive(db, creator.id);
  const offer =
    plan && live
      ? {
          monthlyCents: plan.monthlyCents,
          yearlyCents: plan.yearlyCents,
          trialDays: plan.trialDays,
          perks: plan.perks,
          freeAnswers: plan.freeAnswers,
          creatorName: creator.name,
          creatorImage: creator.imageUrl,
          leadCapture: plan.leadCapture,
        }
      : null;
  const sub = fan ? await fanSubscriptionOf(db, fan) : undefined;
  const subscribed = sub ? accessOpen(sub, now) : false;
  const used = fan ? await fanAnswersThisMonth(db, fan.id, now) : 0;
  const allowance = {
    freeAllowance: offer ? offer.freeAnswers : null,
    fanSubscribed: subscribed,
    fanAnswersThisMonth: used,
  };
  const paywall = pastFreeAllowance({ ...allowance, fanAhead: 0 });
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return {
    offer,
    freeAnswersLeft: freeAnswersLeft(allowance),
    paywall,
    emailGiven: Boolean(fan?.email || fan?.proved_email),
    subscription: sub
      ? {
          status: !subscribed
            ? 'ended'
            : sub.status === 'past_due'
              ? 'past_due'
              : sub.cancel_at_period_end
                ? 'cancelling'
                : sub.status === 'trialing'
                  ? 'trialing'
                  : 'active',
          accessUntil: iso(accessUntil(sub)),
          graceUntil: sub.status === 'past_due' ? iso(sub.grace_until) : null,
          email: sub.email,
        }
      : null,
  };
}

/**
 * The fan gave an email before the paywall (lead capture); exported as CSV by the creator. Contact
 * information only: it proves nothing, so it opens no subscription and reveals none (entitlement.ts).
 */
export async function captureLead(db: Db, fanId: string, email: string): Promise<void> {
  await db.updateTable('fans').set({ email: email.trim().toLowerCase() }).where('id', '=', fanId).execute();
}

/** The creator's leads (fans who gave an email), newest first, as CSV lines. */
export async function leadsCsv(db: Db, creatorId: string): Promise<string> {
  const rows = await db
    .selectFrom('fans')
    .select(['email', 'name', 'created_at', 'paywall_met_at', 'subscribed_at'])
    .where('creator_id', '=', creatorId)
    .where('email', 'is not', null)
    .orderBy('created_at', 'desc')
    .execute();
  const cell = (v: string | null) => {
    const text = v ?? '';
    // Quoted, and a leading = + - @ defused, so a spreadsheet never runs a lead's text as a formula.
    const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return `"${safe.replace(/"/g, '""')}"`;
  };
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  const lines = rows.map((r) =>
    [r.email, r.name, iso(r.created_at), iso(r.paywall_met_at), iso(r.subscribed_at)].map(cell).join(','),
  );
  return `${['email,name,first_seen,met_paywall,subscribed', ...lines].join('\r\n')}\r\n`;
}
