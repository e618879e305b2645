import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedFan, seedQuestion } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handOverToCreator } from '../conversations/hand-over-to-creator.ts';
import { storeAiAnswer } from '../conversations/store-ai-answer.ts';
import { applyStripeFact, type StripeFact } from '../fan-plans/stripe-facts.ts';
import { mailsTo } from '../mail-outbox.ts';
import { rateAnswer } from '../ratings.ts';
import { digestContent, sendDueDigests, topTopics } from './digest.ts';
import { inQuietHours, localTime } from './local-time.ts';
import { noteAlert } from './note-alert.ts';
import { describeGroup, sendDueAlerts, unsentAlerts } from './send-alerts.ts';
import { readUnsubscribeToken, unsubscribeToken } from './unsubscribe.ts';

const mail = { origin: 'https://fanpilot.example', secret: 'a-secret-for-links' };

describe('creator alerts and the digest (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 10));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;
  const emailOf = async (creatorId: string) =>
    (await db().selectFrom('creators').select('email').where('id', '=', creatorId).executeTakeFirstOrThrow())
      .email;
  const settings = (creatorId: string, values: Record<string, unknown>) =>
    db()
      .insertInto('creator_alert_settings')
      .values({ creator_id: creatorId, ...values })
      .onConflict((oc) => oc.column('creator_id').doUpdateSet(values))
      .execute();

  it('the digest of a seeded day: new fans, questions, AI vs handed over, top topics, gaps, ratings', async () => {
    const c = await seedCreator(db());
    const fans = await Promise.all(['Ann', 'Ben', 'Cy'].map((name) => seedFan(db(), c.creatorId, { name })));
    const [ann, ben, cy] = fans as [(typeof fans)[0], (typeof fans)[0], (typeof fans)[0]];
    const q1 = await seedQuestion(db(), ann, 'How often do I feed my starter?');
    const q2 = await seedQuestion(db(), ben, 'My starter smells of acetone, is that bad?');
    const q3 = await seedQuestion(db(), cy, 'Can I keep a starter in the fridge?');
    const q4 = await seedQuestion(db(), ann, 'Which oven do you use?');
    const now = new Date();
    const a1 = await storeAiAnswer(db(), {
      questionId: q1,
      creatorId: c.creatorId,
      body: 'Twice a day.',
      sources: [],
      gap: false,
      now,
    });
    const a2 = await storeAiAnswer(db(), {
      questionId: q2,
      creatorId: c.creatorId,
      body: 'It is hungry: feed it.',
      sources: [],
      gap: false,
      now,
    });
    // The AI's material did not cover the oven: a gap, handed to the creator.
    await storeAiAnswer(db(), {
      questionId: q4,
      creatorId: c.creatorId,
      body: 'I will pass this on.',
      sources: [],
      gap: true,
      handOver: true,
      now,
    });
    await handOverToCreator(db(), q3);
    await rateAnswer(db(), { fanRowId: ann.id, messageId: a1.replyId!, rating: 'up' });
    await rateAnswer(db(), { fanRowId: ben.id, messageId: a2.replyId!, rating: 'down' });

    const content = await digestContent(
      db(),
      c.creatorId,
      new Date(Date.now() - 86_400_000),
      new Date(Date.now() + 1000),
    );
    expect(content).toMatchObject({
      newFans: 3,
      questions: 4,
      answeredByAi: 2,
      handedOver: 2,
      waitingNow: 2,
      gaps: { count: 1, examples: ['Which oven do you use?'] },
      ratings: { up: 1, down: 1 },
      earnings: [],
    });
    expect(content.topTopics[0]).toEqual({ topic: 'starter', questions: 3 });

    // Sent at the creator's morning in their zone: due from their digest hour on, once that day.
    const later = new Date(Date.now() + 60_000);
    const local = localTime(later, 'Asia/Kolkata');
    const hour = Math.floor(local.minutes / 60);
    await settings(c.creatorId, { time_zone: 'Asia/Kolkata', digest: 'daily', digest_hour: (hour + 1) % 24 });
    if (hour < 23) {
      await sendDueDigests(db(), { ...mail, now: later });
      expect(await mailsTo(db(), await emailOf(c.creatorId))).toHaveLength(0);
    }
    await settings(c.creatorId, { digest_hour: hour });
    // Three processes at once: one digest.
    await Promise.all([1, 2, 3].map(() => sendDueDigests(db(), { ...mail, now: later })));
    await sendDueDigests(db(), { ...mail, now: later });
    const sent = await mailsTo(db(), await emailOf(c.creatorId));
    expect(sent).toHaveLength(1);
    const [digest] = sent;
    expect(digest!.purpose).toBe('creator_digest');
    expect(digest!.subject).toBe('Your day on Fanpilot: 4 questions, 3 new fans');
    for (const line of [
      'New fans: 3',
      'Questions: 4',
      'Answered by your AI: 2',
      'Handed over to you: 2',
      'Waiting for you now: 2',
      '- starter (3 questions)',
      'Knowledge gaps (questions your content did not cover): 1',
      '- "Which oven do you use?"',
      'Ratings: 1 helpful, 1 not helpful',
      `Open your dashboard: https://fanpilot.example/admin/`,
      'Stop the digest (one click, no sign-in): https://fanpilot.example/api/notifications/unsubscribe?token=d.',
    ]) {
      expect(digest!.text_body).toContain(line);
    }
    expect(digest!.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });

    // Weekly: on Monday only (2026-11-30 is a Monday), covering the week.
    await settings(c.creatorId, { time_zone: 'UTC', digest: 'weekly', digest_hour: 8, last_digest_on: null });
    await sendDueDigests(db(), { ...mail, now: new Date('2026-11-29T09:00:00Z') });
    expect(await mailsTo(db(), await emailOf(c.creatorId))).toHaveLength(1);
    if (Date.now() < Date.parse('2026-11-30T00:00:00Z')) {
      await sendDueDigests(db(), { ...mail, now: new Date('2026-11-30T09:00:00Z') });
      const weekly = (await mailsTo(db(), await emailOf(c.creatorId)))[0]!;
      expect(weekly.subject).toBe('Your week on Fanpilot: 4 questions, 3 new fans');
    }
  });

  it('a new subscriber and a cancelled subscription, each alerted once however often Stripe repeats it', async () => {
    const c = await seedCreator(db());
    const fan = await seedFan(db(), c.creatorId, { name: 'Sam' });
    const subId = `sub_alerts_${c.creatorId.slice(0, 8)}`;
    const t0 = Math.floor(Date.now() / 1000);
    let n = 0;
    const evt = (type: string, created: number) => ({ id: `evt_alerts_${++n}_${subId}`, type, created });
    const sub = (status: 'active' | 'canceled', cancelAtPeriodEnd: boolean): StripeFact => ({
      kind: 'subscription',
      subscriptionId: subId,
      customerId: 'cus_alerts',
      status,
      currentPeriodEnd: t0 + 30 * 86_400,
      cancelAtPeriodEnd,
      interval: 'month',
      amountCents: 4_900,
      endedAt: status === 'canceled' ? t0 + 200 : null,
      creatorId: c.creatorId,
      fanId: fan.id,
    });
    const started = evt('customer.subscription.created', t0);
    await applyStripeFact(db(), started, sub('active', false));
    await applyStripeFact(db(), started, sub('active', false));
    await applyStripeFact(db(), evt('invoice.paid', t0 + 1), {
      kind: 'invoice_paid',
      invoiceId: `in_${subId}`,
      subscriptionId: subId,
      paymentId: `pi_${subId}`,
      amountCents: 4_900,
      feeCents: 490,
      periodEnd: t0 + 30 * 86_400,
      creatorId: c.creatorId,
      fanId: fan.id,
    });
    await applyStripeFact(db(), evt('customer.subscription.updated', t0 + 100), sub('active', true));
    await applyStripeFact(db(), evt('customer.subscription.deleted', t0 + 200), sub('canceled', true));
    const alerts = await db()
      .selectFrom('creator_alerts')
      .select(['kind', 'detail'])
      .where('creator_id', '=', c.creatorId)
      .orderBy('id')
      .execute();
    expect(alerts).toEqual([
      { kind: 'new_subscriber', detail: 'Sam' },
      { kind: 'subscription_cancelled', detail: 'Sam' },
    ]);
    await sendDueAlerts(db(), { ...mail, windowMs: 0, now: new Date(Date.now() + 1000) });
    const [sent] = await mailsTo(db(), await emailOf(c.creatorId));
    // The creator's display name, the fan, and the plan's amount and interval (issue 36 item 9g).
    expect(sent!.text_body).toMatch(/^Hi Bea Baker,/);
    expect(sent!.text_body).not.toContain(`Hi c-`);
    expect(sent!.text_body).toContain('- Sam subscribed: $49.00 / month.');
    expect(sent!.text_body).toContain('- Sam cancelled their subscription ($49.00 / month).');
    // The digest counts what the subscription paid.
    const day = await digestContent(
      db(),
      c.creatorId,
      new Date(Date.now() - 86_400_000),
      new Date(Date.now() + 60_000),
    );
    expect(day.earnings).toEqual([{ currency: 'usd', cents: 4_900 }]);
  });

  it('names the subscriber by name and the email they paid with, and greets the creator by their name', () => {
    const at = new Date();
    const row = {
      id: '1',
      kind: 'new_subscriber' as const,
      fan_id: 'f1',
      detail: 'Sam',
      reason: null,
      fan_name: 'Sam',
      fan_key: 'k1',
      created_at: at,
      sub_email: 'sam@example.com',
      sub_amount_cents: 9_900,
      sub_interval: 'year',
    };
    const group = describeGroup([row], { username: 'bea-b', name: 'Bea Baker' }, 'https://fp.example');
    expect(group.subject).toBe('Sam (sam@example.com) subscribed: $99.00 / year');
    expect(group.text.split('\n')[0]).toBe('Hi Bea Baker,');
    // A fan known only by the email they paid with; a creator without a name keeps their username.
    const anonymous = describeGroup(
      [{ ...row, fan_name: null, detail: 'sam@example.com', sub_amount_cents: 500, sub_interval: 'month' }],
      { username: 'bea-b', name: ' ' },
      'https://fp.example',
    );
    expect(anonymous.lines).toEqual(['- sam@example.com subscribed: $5.00 / month.']);
    expect(anonymous.text.split('\n')[0]).toBe('Hi bea-b,');
  });

  it('no digest when there is nothing to say', async () => {
    const c = await seedCreator(db());
    await settings(c.creatorId, { digest_hour: 0 });
    await sendDueDigests(db(), { ...mail, now: new Date(Date.now() + 1000) });
    expect(await mailsTo(db(), await emailOf(c.creatorId))).toHaveLength(0);
    const row = await db()
      .selectFrom('creator_alert_settings')
      .select('last_digest_on')
      .where('creator_id', '=', c.creatorId)
      .executeTakeFirstOrThrow();
    expect(row.last_digest_on).toBe(localTime(new Date(Date.now() + 1000), 'UTC').date);
  });

  it('alerts drained by several processes at once leave as one email, each alert once', async () => {
    const c = await seedCreator(db());
    for (let i = 0; i < 20; i++) {
      await noteAlert(db(), {
        creatorId: c.creatorId,
        kind: 'question',
        ref: `q${i}`,
        detail: `Question ${i}?`,
      });
    }
    // The same fact noted twice is one alert.
    await noteAlert(db(), { creatorId: c.creatorId, kind: 'question', ref: 'q0', detail: 'Question 0?' });
    expect(await unsentAlerts(db(), c.creatorId)).toBe(20);
    const now = new Date(Date.now() + 5_000);
    const made = await Promise.all(
      [1, 2, 3, 4].map(() => sendDueAlerts(db(), { ...mail, windowMs: 1000, now })),
    );
    expect(made.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await unsentAlerts(db(), c.creatorId)).toBe(0);
    const sent = await mailsTo(db(), await emailOf(c.creatorId));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text_body.match(/Question \d+\?/g)).toHaveLength(20);
    const batches = await db()
      .selectFrom('creator_alert_batches')
      .select('id')
      .where('creator_id', '=', c.creatorId)
      .execute();
    expect(batches).toHaveLength(1);
  });

  it('an alert waits for its collecting window', async () => {
    const c = await seedCreator(db());
    await noteAlert(db(), { creatorId: c.creatorId, kind: 'credits_out', ref: 'x', detail: '0' });
    await sendDueAlerts(db(), { ...mail, windowMs: 60_000 });
    expect(await unsentAlerts(db(), c.creatorId)).toBe(1);
    await sendDueAlerts(db(), { ...mail, windowMs: 60_000, now: new Date(Date.now() + 61_000) });
    expect(await unsentAlerts(db(), c.creatorId)).toBe(0);
  });

  it('unsubscribe tokens are signed for one creator and one scope', () => {
    const id = '6f1c2b8e-0d7a-4c55-9e0b-3a2f5d8c1e47';
    const token = unsubscribeToken('s1', id, 'digest');
    expect(readUnsubscribeToken('s1', token)).toEqual({ creatorId: id, scope: 'digest' });
    expect(() => readUnsubscribeToken('s2', token)).toThrow(/not valid/);
    expect(() => readUnsubscribeToken('s1', token.replace('d.', 'a.'))).toThrow(/not valid/);
    expect(() => readUnsubscribeToken('s1', 'garbage')).toThrow(/not valid/);
  });

  it('quiet hours span midnight; topics ignore small words', () => {
    expect(inQuietHours(23 * 60, 22 * 60, 7 * 60)).toBe(true);
    expect(inQuietHours(6 * 60 + 59, 22 * 60, 7 * 60)).toBe(true);
    expect(inQuietHours(7 * 60, 22 * 60, 7 * 60)).toBe(false);
    expect(inQuietHours(12 * 60, 9 * 60, 17 * 60)).toBe(true);
    expect(inQuietHours(12 * 60, null, null)).toBe(false);
    expect(topTopics(['What about the crust?', 'Crust too pale', 'the crusts'])).toEqual([
      { topic: 'crust', questions: 3 },
      { topic: 'pale', questions: 1 },
    ]);
  });
});
