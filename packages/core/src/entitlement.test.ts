import { randomBytes } from 'node:crypto';
import { SUBSCRIPTION_GRACE_DAYS } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AllowanceState,
  accessOpen,
  accessOpenSql,
  accessUntil,
  accessUntilSql,
  type FanIdentity,
  holdsSubscription,
  holdsSubscriptionSql,
  inCircle,
  pastFreeAllowance,
  pastFreeAllowanceSql,
  type SubscriptionState,
} from './entitlement.ts';
import { recordPayoutAccount } from './fan-plans/settings.ts';
import { applyStripeFact } from './fan-plans/stripe-facts.ts';

// The entitlement (record 0069) in its two renderings, held to agreement on tables of cases against
// a real database (PGlite in memory, PostgreSQL when TEST_DATABASE_URL is set), as the answer
// policy is; and the rules' cases that used to go wrong.

const NOW = new Date('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

const sub = (over: Partial<SubscriptionState>): SubscriptionState => ({
  status: 'active',
  current_period_end: at(20),
  grace_until: null,
  ended_at: null,
  ended_reason: null,
  ...over,
});

/** Subscription states and whether the chat is open at NOW. */
const ACCESS: [string, SubscriptionState, boolean][] = [
  ['paid, within the period', sub({}), true],
  ['paid, the period over', sub({ current_period_end: at(-1) }), false],
  ['trialing', sub({ status: 'trialing', current_period_end: at(3) }), true],
  ['cancelling at period end, still within it', sub({ current_period_end: at(5) }), true],
  [
    'a failed renewal, within the 7 days of grace',
    sub({ status: 'past_due', current_period_end: at(28), grace_until: at(5) }),
    true,
  ],
  [
    'a failed renewal, the grace over though the unpaid period runs on',
    sub({ status: 'past_due', current_period_end: at(25), grace_until: at(-1) }),
    false,
  ],
  ['past due with no grace recorded', sub({ status: 'past_due', grace_until: null }), false],
  ['cancelled, to the end the provider gave', sub({ status: 'canceled', ended_at: at(2) }), true],
  ['cancelled and over', sub({ status: 'canceled', ended_at: at(-2) }), false],
  ['cancelled with no end: the period’s', sub({ status: 'canceled', current_period_end: at(1) }), true],
  ['refunded', sub({ ended_reason: 'refund', ended_at: at(-0.01) }), false],
  ['disputed while paid up', sub({ ended_reason: 'dispute', ended_at: at(-1) }), false],
  ['incomplete (never paid)', sub({ status: 'incomplete' }), false],
  ['unpaid', sub({ status: 'unpaid' }), false],
  ['paused', sub({ status: 'paused' }), false],
];

const allowance = (over: Partial<AllowanceState>): AllowanceState => ({
  freeAllowance: 3,
  fanSubscribed: false,
  fanAnswersThisMonth: 0,
  fanAhead: 0,
  ...over,
});

const ALLOWANCE: [string, AllowanceState, boolean][] = [
  ['no plan: no paywall', allowance({ freeAllowance: null, fanAnswersThisMonth: 50 }), false],
  ['within the allowance', allowance({ fanAnswersThisMonth: 2 }), false],
  ['the allowance spent', allowance({ fanAnswersThisMonth: 3 }), true],
  [
    'the last free answer taken by a queued question',
    allowance({ fanAnswersThisMonth: 2, fanAhead: 1 }),
    true,
  ],
  ['a subscriber past the allowance', allowance({ fanAnswersThisMonth: 9, fanSubscribed: true }), false],
  ['an allowance of zero', allowance({ freeAllowance: 0 }), true],
];

describe('the entitlement: one rule, in TypeScript and in SQL', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 4));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  it.each(ACCESS)('access: %s', async (_name, state, open) => {
    expect(accessOpen(state, NOW)).toBe(open);
    const d = (v: Date | string | null) => (v === null ? null : new Date(v));
    const row = await sql<{ open: boolean; until: Date | null }>`select ${accessOpenSql('s', NOW)} as open,
        ${accessUntilSql('s')} as until
      from (select ${state.status}::text as status, ${d(state.current_period_end)}::timestamptz as current_period_end,
        ${d(state.grace_until)}::timestamptz as grace_until, ${d(state.ended_at)}::timestamptz as ended_at,
        ${state.ended_reason}::text as ended_reason) s`.execute(db());
    expect(row.rows[0]?.open).toBe(open);
    const until = row.rows[0]?.until;
    expect(until === null || until === undefined ? null : new Date(until).getTime()).toBe(
      accessUntil(state)?.getTime() ?? null,
    );
  });

  it.each(ALLOWANCE)('the allowance: %s', async (_name, state, past) => {
    expect(pastFreeAllowance(state)).toBe(past);
    const row = await sql<{ past: boolean }>`select ${pastFreeAllowanceSql({
      freeAllowance: sql`${state.freeAllowance}::int`,
      fanSubscribed: sql`${state.fanSubscribed}::boolean`,
      fanAnswersThisMonth: sql`${state.fanAnswersThisMonth}::int`,
      fanAhead: sql`${state.fanAhead}::int`,
    })} as past`.execute(db());
    expect(Boolean(row.rows[0]?.past)).toBe(past);
  });

  it('whose subscription it is: every fan against every subscription, both renderings agree', async () => {
    const { creatorId } = await seedCreator(db());
    const { creatorId: otherCreator } = await seedCreator(db());
    const browser = () => randomBytes(32).toString('hex');
    const [phone, laptop, tablet] = [browser(), browser(), browser()];
    const fan = async (
      creator: string,
      cookie: string | null,
      proved: string | null,
      typed: string | null,
    ) => {
      const row = await db()
        .insertInto('fans')
        .values({
          creator_id: creator,
          fan_key: `fan_${randomBytes(6).toString('hex')}`,
          cookie_hash: cookie,
          proved_email: proved,
          email: typed,
        })
        .returning(['id', 'creator_id', 'cookie_hash', 'proved_email'])
        .executeTakeFirstOrThrow();
      return row as FanIdentity;
    };
    const fans = [
      await fan(creatorId, phone, null, null), // bought the subscription
      await fan(creatorId, phone, null, null), // the same phone under a new fan id
      await fan(creatorId, laptop, 'ana@example.com', null), // proved the email on a laptop
      await fan(creatorId, tablet, null, 'ana@example.com'), // typed the email: a lead, nothing more
      await fan(creatorId, null, null, null), // a conversation from before cookies
      await fan(otherCreator, phone, 'ana@example.com', null), // the same phone, another creator
    ];
    const subscription = async (creator: string, fanId: string | null, email: string | null) => {
      const row = await db()
        .insertInto('fan_subscriptions')
        .values({
          creator_id: creator,
          provider_subscription_id: `sub_${randomBytes(6).toString('hex')}`,
          fan_id: fanId,
          email,
          status: 'active',
          current_period_end: at(10),
        })
        .returning(['id', 'creator_id', 'fan_id', 'email'])
        .executeTakeFirstOrThrow();
      return row;
    };
    const subs = [
      await subscription(creatorId, fans[0]!.id, 'Ana@Example.com'),
      await subscription(creatorId, null, 'ana@example.com'),
      await subscription(creatorId, fans[4]!.id, null),
      await subscription(otherCreator, fans[5]!.id, 'ana@example.com'),
    ];
    const everyone = fans;
    const expected: boolean[][] = [];
    for (const f of fans) {
      const tsRow: boolean[] = [];
      const sqlRow: boolean[] = [];
      for (const s of subs) {
        tsRow.push(holdsSubscription(f, everyone, s));
        const r = await sql<{ held: boolean }>`select ${holdsSubscriptionSql('s', sql`${f.id}::uuid`)} as held
          from fan_subscriptions s where s.id = ${s.id}`.execute(db());
        sqlRow.push(Boolean(r.rows[0]?.held));
      }
      expect(sqlRow).toEqual(tsRow);
      expected.push(tsRow);
    }
    // What the rule says, in words: the buyer's browser and the proved email hold it; a typed email never.
    expect(expected).toEqual([
      [true, false, false, false], // the buyer: its own (it proved no email here)
      [true, false, false, false], // the same phone under a new id: the phone's
      [true, true, false, false], // the laptop that proved the email: both under that email
      [false, false, false, false], // typed the email: nothing
      [false, false, true, false], // the old conversation: the one bought from it
      [false, false, false, true], // another creator's: only that creator's
    ]);
    expect(inCircle(fans[0]!, fans[1]!)).toBe(true);
    expect(inCircle(fans[0]!, fans[5]!)).toBe(false);
  });

  it('grace means grace: a failed renewal opens the chat 7 days from the failure, not through the unpaid period', async () => {
    const { creatorId } = await seedCreator(db());
    await recordPayoutAccount(db(), creatorId, `acct_${creatorId.slice(0, 8)}`);
    const subId = `sub_${randomBytes(6).toString('hex')}`;
    const failedAt = Math.floor(Date.now() / 1000) - 86_400;
    const owner = { creatorId, fanId: null };
    const event = (type: string, created: number) => ({
      id: `evt_${randomBytes(6).toString('hex')}`,
      type,
      created,
    });
    await applyStripeFact(db(), event('customer.subscription.created', failedAt - 30 * 86_400), {
      kind: 'subscription',
      subscriptionId: subId,
      customerId: 'cus_g',
      status: 'active',
      currentPeriodEnd: failedAt,
      cancelAtPeriodEnd: false,
      interval: 'month',
      amountCents: 900,
      endedAt: null,
      ...owner,
    });
    // Stripe moves the period on and marks the subscription past due when the renewal fails.
    await applyStripeFact(db(), event('customer.subscription.updated', failedAt), {
      kind: 'subscription',
      subscriptionId: subId,
      customerId: 'cus_g',
      status: 'past_due',
      currentPeriodEnd: failedAt + 30 * 86_400,
      cancelAtPeriodEnd: false,
      interval: 'month',
      amountCents: 900,
      endedAt: null,
      ...owner,
    });
    await applyStripeFact(db(), event('invoice.payment_failed', failedAt + 5), {
      kind: 'invoice_failed',
      invoiceId: `in_${subId}`,
      subscriptionId: subId,
      ...owner,
    });
    // A retry fails three days later: the grace still runs from the first failure.
    await applyStripeFact(db(), event('invoice.payment_failed', failedAt + 3 * 86_400), {
      kind: 'invoice_failed',
      invoiceId: `in_${subId}`,
      subscriptionId: subId,
      ...owner,
    });
    const row = await db()
      .selectFrom('fan_subscriptions')
      .selectAll()
      .where('provider_subscription_id', '=', subId)
      .executeTakeFirstOrThrow();
    const graceEnd = (failedAt + SUBSCRIPTION_GRACE_DAYS * 86_400) * 1000;
    expect(new Date(row.access_until!).getTime()).toBe(graceEnd);
    expect(accessOpen(row, new Date(graceEnd - 1000))).toBe(true);
    expect(accessOpen(row, new Date(graceEnd + 1000))).toBe(false);
    expect(accessOpen(row, new Date((failedAt + 20 * 86_400) * 1000))).toBe(false);
  });
});
