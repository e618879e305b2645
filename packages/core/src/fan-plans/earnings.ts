import type { Earnings } from '@fanpilot/contracts';
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { accessOpenSql, holdsSubscriptionSql, startOfUtcMonth } from '../entitlement.ts';

/** What Stripe reports of the connected account's payouts (the api asks it; none without Stripe). */
export interface PayoutReport {
  payouts: Earnings['payouts'];
  note: string | null;
}

/**
 * The creator's earnings from fans: subscribers now, monthly recurring revenue (a yearly plan counts
 * a twelfth), the platform's fee on it, new and cancelled this month, the measured conversion (fans
 * who met the paywall → of them, subscribed), and this month's paid invoices.
 */
export async function earningsOf(
  db: Db,
  creatorId: string,
  feePercent: number,
  payouts: PayoutReport,
  now: Date = new Date(),
): Promise<Earnings> {
  const month = startOfUtcMonth(now);
  const subs = await db
    .selectFrom('fan_subscriptions as s')
    .select([
      sql<string>`count(*) filter (where ${accessOpenSql('s', now)})`.as('subscribers'),
      sql<string>`coalesce(sum(case when ${accessOpenSql('s', now)} and not s.cancel_at_period_end
        and s.status in ('active', 'past_due') then case when s.interval = 'year' then s.amount_cents / 12.0 else s.amount_cents end end), 0)`.as(
        'mrr',
      ),
      sql<string>`count(*) filter (where s.started_at >= ${month})`.as('new_this_month'),
      sql<string>`count(*) filter (where (s.ended_at >= ${month} and s.ended_at <= ${now}) or (s.cancel_at_period_end and s.status <> 'canceled'))`.as(
        'cancelled_this_month',
      ),
    ])
    .where('s.creator_id', '=', creatorId)
    .executeTakeFirst();
  const fans = await db
    .selectFrom('fans')
    .select([
      // People, not conversations: a browser's conversations are one fan (entitlement.ts).
      sql<string>`count(distinct coalesce(cookie_hash, id::text)) filter (where paywall_met_at is not null)`.as(
        'met',
      ),
      sql<string>`count(distinct coalesce(cookie_hash, id::text)) filter (where paywall_met_at is not null and subscribed_at is not null)`.as(
        'converted',
      ),
    ])
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  const paid = await db
    .selectFrom('fan_subscription_payments as p')
    .innerJoin('fan_subscriptions as s', 's.provider_subscription_id', 'p.provider_subscription_id')
    .select([
      sql<string>`coalesce(sum(p.amount_cents) filter (where p.reversed is null), 0)`.as('gross'),
      sql<string>`coalesce(sum(p.fee_cents) filter (where p.reversed is null), 0)`.as('fee'),
    ])
    .where('s.creator_id', '=', creatorId)
    .where('p.paid_at', '>=', month)
    .executeTakeFirst();
  const mrrCents = Math.round(Number(subs?.mrr ?? 0));
  const met = Number(fans?.met ?? 0);
  const converted = Number(fans?.converted ?? 0);
  return {
    currency: 'usd',
    subscribers: Number(subs?.subscribers ?? 0),
    mrrCents,
    feePercent,
    feeCents: Math.round((mrrCents * feePercent) / 100),
    newThisMonth: Number(subs?.new_this_month ?? 0),
    cancelledThisMonth: Number(subs?.cancelled_this_month ?? 0),
    paywallFans: met,
    convertedFans: converted,
    conversionPercent: met === 0 ? null : Math.round((converted / met) * 1000) / 10,
    paidThisMonthCents: Number(paid?.gross ?? 0),
    feeThisMonthCents: Number(paid?.fee ?? 0),
    payouts: payouts.payouts,
    payoutsNote: payouts.note,
  };
}

/** Which of the creator's fans (by fan id) are subscribers now: the inbox marks them. */
export async function subscriberFanKeys(
  db: Db,
  creatorId: string,
  fanKeys: string[],
  now: Date = new Date(),
) {
  if (fanKeys.length === 0) return new Set<string>();
  const rows = await db
    .selectFrom('fans as f')
    .select('f.fan_key')
    .where('f.creator_id', '=', creatorId)
    .where('f.fan_key', 'in', fanKeys)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('fan_subscriptions as s')
          .select(sql`1`.as('one'))
          .whereRef('s.creator_id', '=', 'f.creator_id')
          .where(holdsSubscriptionSql('s', sql.ref('f.id')))
          .where(accessOpenSql('s', now)),
      ),
    )
    .execute();
  return new Set(rows.map((r) => r.fan_key));
}
