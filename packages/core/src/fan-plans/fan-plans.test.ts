import { AI_SENDER, type FanPlanSettings, SUBSCRIPTION_GRACE_DAYS } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedFan, seedQuestion } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideAnswer, loadAnswerSnapshot } from '../answer-policy.ts';
import { DomainError } from '../errors.ts';
import { earningsOf } from './earnings.ts';
import { fanPlanStateOf } from './fan-state.ts';
import { recordPayoutAccount, saveFanPlan } from './settings.ts';
import { applyStripeFact, type StripeFact } from './stripe-facts.ts';

const PLAN: FanPlanSettings = {
  enabled: true,
  monthlyCents: 4_900,
  yearlyCents: 49_000,
  trialDays: 0,
  freeAnswers: 3,
  perks: 'Unlimited answers',
  leadCapture: false,
};

let n = 0;
const evt = (type: string, created: number) => ({
  id: `evt_${++n}_${Math.random().toString(36).slice(2)}`,
  type,
  created,
});

describe('fans pay their creator (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  /** A creator whose plan is live (an account taking charges), and one fan. */
  const live = async () => {
    const creator = await seedCreator(db());
    await saveFanPlan(db(), creator.creatorId, PLAN);
    const account = `acct_${creator.creatorId.slice(0, 8)}`;
    await recordPayoutAccount(db(), creator.creatorId, account);
    await applyStripeFact(db(), evt('account.updated', 1), {
      kind: 'account',
      accountId: account,
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
    });
    const fan = await seedFan(db(), creator.creatorId);
    return { creator, fan, account };
  };

  it('refuses a plan outside the bounds, in core as in the contract', async () => {
    const { creatorId } = await seedCreator(db());
    const bad = async (over: Partial<FanPlanSettings>) => {
      const err = await saveFanPlan(db(), creatorId, { ...PLAN, ...over }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      return (err as DomainError).message;
    };
    expect(await bad({ monthlyCents: 299 })).toMatch(/at least \$3/);
    expect(await bad({ monthlyCents: 100_000 })).toMatch(/at most \$999/);
    expect(await bad({ yearlyCents: 4_900 })).toMatch(/yearly/);
    expect(await bad({ yearlyCents: 4_900 * 12 + 1 })).toMatch(/yearly/);
    expect(await bad({ trialDays: 31 })).toMatch(/30 days/);
    expect(await bad({ freeAnswers: -1 })).toMatch(/negative/);
    expect(
      await saveFanPlan(db(), creatorId, { ...PLAN, monthlyCents: 9_900, yearlyCents: null }),
    ).toMatchObject({
      monthlyCents: 9_900,
    });
  });

  it('the answer policy: the AI answers within the allowance, then the paywall; a subscriber is answered', async () => {
    const { creator, fan } = await live();
    const aiAnswer = async () => {
      const q = await seedQuestion(db(), fan, 'Question?');
      await db()
        .insertInto('messages')
        .values({
          creator_id: creator.creatorId,
          fan_id: fan.id,
          sender: AI_SENDER,
          body: 'Answer.',
          status: 'answered',
          reply_to: q,
        })
        .execute();
      await db().updateTable('messages').set({ status: 'answered' }).where('id', '=', q).execute();
    };
    const decide = async () => {
      const q = await seedQuestion(db(), fan, 'Another?');
      const s = await loadAnswerSnapshot(db(), creator.creatorId, { questionId: q });
      await db().updateTable('messages').set({ status: 'answered' }).where('id', '=', q).execute();
      return decideAnswer(s!);
    };
    expect(await decide()).toBe('ai');
    await aiAnswer();
    await aiAnswer();
    expect(await decide()).toBe('ai');
    await aiAnswer();
    expect(await decide()).toBe('paywall');
    // The creator-wide snapshot (the public card, credits) knows no fan: never a paywall.
    expect(decideAnswer((await loadAnswerSnapshot(db(), creator.creatorId))!)).toBe('ai');
    const state = await fanPlanStateOf(
      db(),
      { id: creator.creatorId, name: 'Bea', imageUrl: null },
      { ...fan, creator_id: creator.creatorId, email: null, proved_email: null },
    );
    expect(state).toMatchObject({ paywall: true, freeAnswersLeft: 0, subscription: null });
    expect(state.offer?.monthlyCents).toBe(4_900);

    const now = Math.floor(Date.now() / 1000);
    await applyStripeFact(db(), evt('customer.subscription.created', now), {
      kind: 'subscription',
      subscriptionId: `sub_${fan.id}`,
      customerId: 'cus_1',
      status: 'active',
      currentPeriodEnd: now + 30 * 86_400,
      cancelAtPeriodEnd: false,
      interval: 'month',
      amountCents: 4_900,
      endedAt: null,
      creatorId: creator.creatorId,
      fanId: fan.id,
    });
    expect(await decide()).toBe('ai');
    const after = await fanPlanStateOf(
      db(),
      { id: creator.creatorId, name: 'Bea', imageUrl: null },
      { ...fan, creator_id: creator.creatorId, email: null, proved_email: null },
    );
    expect(after).toMatchObject({
      paywall: false,
      freeAnswersLeft: null,
      subscription: { status: 'active' },
    });
  });

  /** A subscription's life as Stripe reports it: checkout, created, paid, cancel at period end. */
  const lifeOf = (creatorId: string, fanId: string, subId: string, t0: number) => {
    const periodEnd = t0 + 30 * 86_400;
    const owner = { creatorId, fanId };
    const events: [ReturnType<typeof evt>, StripeFact][] = [
      [
        evt('checkout.session.completed', t0 + 2),
        {
          kind: 'checkout_completed',
          sessionId: `cs_${subId}`,
          subscriptionId: subId,
          customerId: 'cus_x',
          email: 'Fan@Example.com',
          ...owner,
        },
      ],
      [
        evt('customer.subscription.created', t0),
        {
          kind: 'subscription',
          subscriptionId: subId,
          customerId: 'cus_x',
          status: 'incomplete',
          currentPeriodEnd: periodEnd,
          cancelAtPeriodEnd: false,
          interval: 'month',
          amountCents: 4_900,
          endedAt: null,
          ...owner,
        },
      ],
      [
        evt('customer.subscription.updated', t0 + 1),
        {
          kind: 'subscription',
          subscriptionId: subId,
          customerId: 'cus_x',
          status: 'active',
          currentPeriodEnd: periodEnd,
          cancelAtPeriodEnd: false,
          interval: 'month',
          amountCents: 4_900,
          endedAt: null,
          ...owner,
        },
      ],
      [
        evt('invoice.paid', t0 + 1),
        {
          kind: 'invoice_paid',
          invoiceId: `in_${subId}`,
          subscriptionId: subId,
          paymentId: `pi_${subId}`,
          amountCents: 4_900,
          feeCents: 490,
          periodEnd,
          ...owner,
        },
      ],
      [
        evt('customer.subscription.updated', t0 + 100),
        {
          kind: 'subscription',
          subscriptionId: subId,
          customerId: 'cus_x',
          status: 'active',
          currentPeriodEnd: periodEnd,
          cancelAtPeriodEnd: true,
          interval: 'month',
          amountCents: 4_900,
          endedAt: null,
          ...owner,
        },
      ],
    ];
    return { events, periodEnd };
  };

  const stateOf = (subId: string) =>
    db()
      .selectFrom('fan_subscriptions')
      .select([
        'status',
        'email',
        'fan_id',
        'cancel_at_period_end',
        'access_until',
        'current_period_end',
        'started_at',
      ])
      .where('provider_subscription_id', '=', subId)
      .executeTakeFirstOrThrow();

  it('applies the events of a subscription to the same state in any order, each once however often delivered', async () => {
    const { creator, fan } = await live();
    const t0 = Math.floor(Date.now() / 1000);
    const orders = [
      [0, 1, 2, 3, 4],
      [4, 3, 2, 1, 0],
      [2, 4, 0, 3, 1],
      [3, 0, 4, 1, 2],
    ];
    const finals = [];
    for (const [i, order] of orders.entries()) {
      const subId = `sub_order_${i}_${fan.id.slice(0, 6)}`;
      const { events, periodEnd } = lifeOf(creator.creatorId, fan.id, subId, t0);
      for (const k of order) {
        const [e, fact] = events[k]!;
        expect(await applyStripeFact(db(), e, fact)).toBe('applied');
        // Delivered again: nothing changes.
        expect(await applyStripeFact(db(), e, fact)).toBe('duplicate');
      }
      const s = await stateOf(subId);
      expect(s).toMatchObject({
        status: 'active',
        email: 'fan@example.com',
        fan_id: fan.id,
        cancel_at_period_end: true,
      });
      expect(new Date(s.access_until!).getTime()).toBe(periodEnd * 1000);
      finals.push({ ...s, started_at: null });
    }
    expect(new Set(finals.map((f) => JSON.stringify(f))).size).toBe(1);
    const fanRow = await db()
      .selectFrom('fans')
      .select(['email', 'subscribed_at'])
      .where('id', '=', fan.id)
      .executeTakeFirstOrThrow();
    expect(fanRow.email).toBe('fan@example.com');
    expect(fanRow.subscribed_at).not.toBeNull();
  });

  it('a failed renewal keeps access through the grace period; paying again restores it; an older event changes nothing', async () => {
    const { creator, fan } = await live();
    const subId = `sub_grace_${fan.id.slice(0, 6)}`;
    const t0 = Math.floor(Date.now() / 1000) - 31 * 86_400;
    const { events } = lifeOf(creator.creatorId, fan.id, subId, t0);
    for (const [e, f] of events.slice(0, 4)) await applyStripeFact(db(), e, f);
    const failedAt = t0 + 30 * 86_400;
    const owner = { creatorId: creator.creatorId, fanId: fan.id };
    await applyStripeFact(db(), evt('invoice.payment_failed', failedAt), {
      kind: 'invoice_failed',
      invoiceId: 'in_2',
      subscriptionId: subId,
      ...owner,
    });
    let s = await stateOf(subId);
    expect(s.status).toBe('past_due');
    // The subscriber is told by email (queued with the change, sent by the mail role).
    const told = await db()
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'purpose'])
      .where('to_address', '=', 'fan@example.com')
      .where('purpose', '=', 'payment_failed')
      .execute();
    expect(told).toHaveLength(1);
    expect(told[0]?.subject).toMatch(/did not go through/);
    expect(new Date(s.access_until!).getTime()).toBe((failedAt + SUBSCRIPTION_GRACE_DAYS * 86_400) * 1000);
    // A late copy of an older "active" update does not undo the failure.
    const [olderEvent, olderFact] = events[2]!;
    await applyStripeFact(db(), { ...olderEvent, id: `${olderEvent.id}_late` }, olderFact);
    expect((await stateOf(subId)).status).toBe('past_due');
    const nextEnd = failedAt + 30 * 86_400;
    await applyStripeFact(db(), evt('invoice.paid', failedAt + 3600), {
      kind: 'invoice_paid',
      invoiceId: 'in_2',
      subscriptionId: subId,
      paymentId: 'pi_2',
      amountCents: 4_900,
      feeCents: 490,
      periodEnd: nextEnd,
      ...owner,
    });
    s = await stateOf(subId);
    expect(s.status).toBe('active');
    expect(new Date(s.access_until!).getTime()).toBe(nextEnd * 1000);
  });

  it('a refund or a dispute ends access, and nothing after it reopens it; a refund before its invoice waits (409)', async () => {
    const { creator, fan } = await live();
    const subId = `sub_refund_${fan.id.slice(0, 6)}`;
    // Stripe's events are in the past when they arrive.
    const t0 = Math.floor(Date.now() / 1000) - 1000;
    const { events } = lifeOf(creator.creatorId, fan.id, subId, t0);
    const refund = evt('charge.refunded', t0 + 50);
    const early = await applyStripeFact(db(), refund, {
      kind: 'reversed',
      paymentId: `pi_${subId}`,
      reason: 'refund',
    }).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(DomainError);
    expect((early as DomainError).code).toBe('not_yet');
    for (const [e, f] of events.slice(0, 4)) await applyStripeFact(db(), e, f);
    // Stripe delivers the refund again: now it applies.
    expect(
      await applyStripeFact(db(), refund, {
        kind: 'reversed',
        paymentId: `pi_${subId}`,
        reason: 'refund',
      }),
    ).toBe('applied');
    const [e4, f4] = events[4]!;
    await applyStripeFact(db(), e4, f4);
    const s = await stateOf(subId);
    expect(new Date(s.access_until!).getTime()).toBe((t0 + 50) * 1000);
    const q = await seedQuestion(db(), fan, 'Still there?');
    // Past any allowance? No answers yet: the fan is within the free allowance again, not subscribed.
    const snap = await loadAnswerSnapshot(db(), creator.creatorId, { questionId: q });
    expect(snap?.fanSubscribed).toBe(false);
  });

  it('ignores events about creators it does not know (an unknown session)', async () => {
    expect(
      await applyStripeFact(db(), evt('checkout.session.completed', 1), {
        kind: 'checkout_completed',
        sessionId: 'cs_unknown',
        subscriptionId: 'sub_unknown',
        customerId: null,
        email: 'x@example.com',
        creatorId: '00000000-0000-4000-8000-000000000000',
        fanId: null,
      }),
    ).toBe('ignored');
    expect(
      await applyStripeFact(db(), evt('account.updated', 1), {
        kind: 'account',
        accountId: 'acct_nobody',
        chargesEnabled: true,
        payoutsEnabled: true,
        detailsSubmitted: true,
      }),
    ).toBe('ignored');
  });

  it('earnings: subscribers, MRR, the fee, and the measured conversion', async () => {
    const { creator, fan } = await live();
    const other = await seedFan(db(), creator.creatorId);
    const t0 = Math.floor(Date.now() / 1000);
    const { events } = lifeOf(creator.creatorId, fan.id, `sub_earn_${fan.id.slice(0, 6)}`, t0);
    for (const [e, f] of events.slice(0, 4)) await applyStripeFact(db(), e, f);
    await db()
      .updateTable('fans')
      .set({ paywall_met_at: new Date() })
      .where('id', 'in', [fan.id, other.id])
      .execute();
    const earnings = await earningsOf(db(), creator.creatorId, 10, { payouts: [], note: null });
    expect(earnings).toMatchObject({
      subscribers: 1,
      mrrCents: 4_900,
      feeCents: 490,
      newThisMonth: 1,
      paywallFans: 2,
      convertedFans: 1,
      conversionPercent: 50,
      paidThisMonthCents: 4_900,
      feeThisMonthCents: 490,
    });
  });
});
