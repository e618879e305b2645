import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, json, onboard, startTestApp, type TestApp } from '../helpers.ts';

interface Topic {
  id: string;
  label: string;
  questions: number;
  previous: number;
  answeredByAi: number;
  handedOver: number;
  ratingsUp: number;
  ratingsDown: number;
  examples: { id: string; question: string; fanId: string | null }[];
}
interface Report {
  ungrouped: number;
  topics: Topic[];
  gaps: { question: string; fans: number; questions: number; questionIds: string[] }[];
  funnel: {
    start: string;
    opened: number;
    asked: number;
    metPaywall: number;
    subscribed: number;
    earningsCents: number;
  }[];
  quality: {
    questions: number;
    answeredByAi: number;
    handedOver: number;
    ratingsUp: number;
    ratingsDown: number;
    medianFirstAnswerSeconds: number | null;
  }[];
}

const DAY = 86_400_000;

/** A seeded creator: a known mix of topics (paraphrases) and gaps, grouped by meaning by the local encoder. */
const MIX: { topic: string; questions: string[] }[] = [
  {
    topic: 'ukulele',
    questions: [
      'How do I tune my ukulele?',
      'What is the right tuning for a ukulele?',
      'ukulele tuning help please',
      'How should I tune a ukulele?',
    ],
  },
  {
    topic: 'course price',
    questions: [
      'How much does the course cost?',
      'What is the price of the beginner course?',
      'How much is your course?',
    ],
  },
  { topic: 'gift cards', questions: ['Do you sell gift cards?', 'Can I buy a gift card for my friend?'] },
];

describe('Insights: what fans want', () => {
  let t: TestApp;
  let cookie: string;
  let other: string;
  let creatorId: string;

  const insights = (period = 30, who = cookie, username = 'ines') =>
    call(t, 'GET', `/api/creators/username/${username}/insights?period=${period}`, who);

  beforeAll(async () => {
    t = await startTestApp({ env: { EMBEDDINGS: 'local' } });
    cookie = await onboard(t, 'ines');
    other = await onboard(t, 'otto');
    const db = t.app.db;
    creatorId = (
      await db.selectFrom('creators').select('id').where('username', '=', 'ines').executeTakeFirstOrThrow()
    ).id;
    const now = Date.now();
    let n = 0;
    const fans: string[] = [];
    for (let i = 0; i < 6; i++) {
      const fan = await db
        .insertInto('fans')
        .values({ creator_id: creatorId, fan_key: `seed-${i}`, name: `Fan ${i}` })
        .returning('id')
        .executeTakeFirstOrThrow();
      fans.push(fan.id);
    }
    await db
      .updateTable('fans')
      .set({ paywall_met_at: new Date(), subscribed_at: new Date() })
      .where('id', '=', fans[0]!)
      .execute();
    await db.updateTable('fans').set({ paywall_met_at: new Date() }).where('id', '=', fans[1]!).execute();
    await db
      .insertInto('fan_subscriptions')
      .values({ creator_id: creatorId, provider_subscription_id: 'sub_seed', fan_id: fans[0]!, state_at: 1 })
      .execute();
    await db
      .insertInto('fan_subscription_payments')
      .values({
        invoice_id: 'in_seed',
        provider_subscription_id: 'sub_seed',
        amount_cents: 900,
        paid_at: new Date(now - DAY),
      })
      .execute();
    const ask = async (
      body: string,
      at: Date,
      fan: string,
      o: { ai?: 'up' | 'down' | null; gap?: boolean; handOver?: boolean } = {},
    ) => {
      const q = await db
        .insertInto('messages')
        .values({
          creator_id: creatorId,
          fan_id: fan,
          sender: 'fan',
          body,
          status: 'answered',
          created_at: at,
          answered_at: new Date(at.getTime() + 4_000),
          ai_handed_over_at: o.handOver ? at : null,
          knowledge_gap_at: o.gap ? at : null,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      if (o.ai !== undefined && !o.handOver) {
        await db
          .insertInto('messages')
          .values({
            creator_id: creatorId,
            fan_id: fan,
            sender: 'Creatorai',
            body: 'An answer.',
            reply_to: q.id,
            created_at: new Date(at.getTime() + 4_000),
            fan_rating: o.ai,
            fan_rated_at: o.ai ? new Date(at.getTime() + 10_000) : null,
          } as never)
          .execute();
      }
    };
    // One ukulele question 40 days ago: the trend's previous period of 30 days.
    await ask('How can I tune a ukulele properly?', new Date(now - 40 * DAY), fans[5]!, { ai: null });
    for (const { topic, questions } of MIX) {
      for (const [i, body] of questions.entries()) {
        const at = new Date(now - (n++ % 5) * DAY - 60_000);
        const fan = fans[i % 3]!;
        if (topic === 'ukulele') await ask(body, at, fan, { ai: i === 0 ? 'down' : 'up' });
        else if (topic === 'course price') await ask(body, at, fan, { ai: null, handOver: i === 2 });
        else await ask(body, at, fans[3 + i]!, { ai: null, gap: true });
      }
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('groups the seeded questions by meaning, with counts, trend, AI share, ratings and examples', async () => {
    const first = await insights();
    expect(first.status).toBe(200);
    // Grouping runs in the background after a visit; the report says how many questions wait.
    const report = await eventually(async () => {
      const r = (await json(await insights())) as unknown as Report;
      return r.ungrouped === 0 && r.topics.length > 0 ? r : null;
    }, 90_000);
    const sizes = report.topics.map((x) => x.questions);
    expect(sizes).toEqual([4, 3, 2]);
    const [ukulele, price, gifts] = report.topics;
    expect(ukulele!.label.toLowerCase()).toContain('ukulele');
    expect(ukulele!.examples.map((e) => e.question).every((q) => /ukulele/i.test(q))).toBe(true);
    expect(ukulele!.examples).toHaveLength(3);
    expect(ukulele!.examples[0]!.fanId).toMatch(/[0-9a-f-]{36}/);
    expect(ukulele).toMatchObject({
      previous: 1,
      answeredByAi: 4,
      handedOver: 0,
      ratingsUp: 3,
      ratingsDown: 1,
    });
    expect(price).toMatchObject({ previous: 0, answeredByAi: 2, handedOver: 1 });
    expect(price!.label.toLowerCase()).toContain('course');
    expect(gifts!.label.toLowerCase()).toMatch(/gift|card/);

    // What to make next: the gift-card gap, asked by two fans.
    expect(report.gaps).toHaveLength(1);
    expect(report.gaps[0]).toMatchObject({ fans: 2, questions: 2, topic: gifts!.label });

    // The funnel: 6 fans opened the chat, 6 asked (the seeded ones), 2 met the paywall, 1 subscribed, $9.
    const sum = (k: keyof Report['funnel'][number]) => report.funnel.reduce((a, f) => a + Number(f[k]), 0);
    expect([sum('opened'), sum('asked'), sum('metPaywall'), sum('subscribed'), sum('earningsCents')]).toEqual(
      [6, 6, 2, 1, 900],
    );
    const q = report.quality.reduce(
      (a, r) => ({
        questions: a.questions + r.questions,
        ai: a.ai + r.answeredByAi,
        up: a.up + r.ratingsUp,
        down: a.down + r.ratingsDown,
      }),
      { questions: 0, ai: 0, up: 0, down: 0 },
    );
    expect(q).toEqual({ questions: 9, ai: 8, up: 3, down: 1 }); // the gaps were answered by the AI too
    expect(report.quality.some((r) => r.medianFirstAnswerSeconds === 4)).toBe(true);

    // 90 days: the old question counts too.
    const quarter = (await json(await insights(90))) as unknown as Report;
    expect(quarter.topics[0]).toMatchObject({ questions: 5, previous: 0 });
    // 7 days: a row a day.
    const week = (await json(await insights(7))) as unknown as Report;
    expect(week.quality.length).toBeGreaterThanOrEqual(7);
  }, 120_000);

  it('exports each table as CSV', async () => {
    const res = await call(t, 'GET', '/api/creators/username/ines/insights/topics.csv?period=30', cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'topic,questions,previous_period,answered_by_ai,handed_over,ratings_up,ratings_down,example',
    );
    expect(lines).toHaveLength(4);
    for (const table of ['gaps', 'funnel', 'quality']) {
      const r = await call(t, 'GET', `/api/creators/username/ines/insights/${table}.csv?period=7`, cookie);
      expect(r.status).toBe(200);
      expect((await r.text()).split('\r\n')[0]!.length).toBeGreaterThan(5);
    }
  });

  it("keeps each creator's insights their own and refuses bad input with a clear 4xx", async () => {
    expect((await insights(30, other)).status).toBe(403);
    const own = (await json(await insights(30, other, 'otto'))) as unknown as Report;
    expect(own.topics).toEqual([]);
    expect(own.gaps).toEqual([]);
    for (const path of [
      '/api/creators/username/ines/insights?period=14',
      '/api/creators/username/ines/insights/secrets.csv?period=30',
      '/api/creators/username/ines/insights/topics.csv?period=abc',
    ]) {
      const res = await call(t, 'GET', path, cookie);
      expect(res.status).toBe(400);
      expect(await json(res)).toHaveProperty('message');
    }
  });
});
