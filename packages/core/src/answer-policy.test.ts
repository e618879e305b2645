import { randomUUID } from 'node:crypto';
import { CREDITS_PER_AI_ANSWER, DEFAULT_DAILY_AI_BUDGET, FREE_CREDITS } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnswerDecisionKind,
  type AnswerSnapshot,
  aiAnswersSql,
  aiRefusal,
  answerDecisionSql,
  answerPriority,
  decideAnswer,
  forecastAnswer,
  loadAnswerSnapshot,
  NO_FAN,
  snapshotColumns,
  snapshotRefs,
  startOfUtcDay,
} from './answer-policy.ts';
import { storeAiAnswer } from './conversations/store-ai-answer.ts';
import { adjustCredits, chargeAiAnswer, creditsRepository, grantFreeCredits } from './credits.ts';

// The answer policy's rules (pure, and as SQL against a real database: PGlite in memory, and
// PostgreSQL when TEST_DATABASE_URL is set), the loader that reads its snapshot, the credits it
// spends, and the locked write that stores an AI answer and charges it once.

const PRICE = CREDITS_PER_AI_ANSWER;
const base: AnswerSnapshot = {
  creatorOnline: false,
  dailyBudget: 300,
  balance: 10,
  answersToday: 0,
  ahead: 0,
  ...NO_FAN,
};
const snap = (over: Partial<AnswerSnapshot>): AnswerSnapshot => ({ ...base, ...over });

/** The rules as a table: a snapshot and who answers. */
const TABLE: [string, AnswerSnapshot, AnswerDecisionKind][] = [
  ['Offline, a chatbot, credits, room: the AI', base, 'ai'],
  ['the creator Online answers themselves', snap({ creatorOnline: true }), 'creator_online'],
  [
    'Online wins over every other reason',
    snap({ creatorOnline: true, balance: 0, dailyBudget: null }),
    'creator_online',
  ],
  ['no credit left', snap({ balance: 0 }), 'no_credits'],
  ['a negative balance', snap({ balance: -5 }), 'no_credits'],
  ['exactly one answer’s price left: the AI', snap({ balance: PRICE }), 'ai'],
  ['one answer’s price, but a question ahead takes it', snap({ balance: PRICE, ahead: 1 }), 'no_credits'],
  ['credits for this one and the one ahead', snap({ balance: 2 * PRICE, ahead: 1 }), 'ai'],
  ['no chatbot', snap({ dailyBudget: null }), 'no_chatbot'],
  [
    'no chatbot and no credit: credits are checked first',
    snap({ dailyBudget: null, balance: 0 }),
    'no_credits',
  ],
  ['one answer left in today’s budget', snap({ dailyBudget: 5, answersToday: 4 }), 'ai'],
  ['the budget used up exactly', snap({ dailyBudget: 5, answersToday: 5 }), 'over_budget'],
  ['past the budget (lowered during the day)', snap({ dailyBudget: 5, answersToday: 9 }), 'over_budget'],
  [
    'the last answer of the day is taken by a question ahead',
    snap({ dailyBudget: 5, answersToday: 4, ahead: 1 }),
    'over_budget',
  ],
  ['room for the questions ahead and this one', snap({ dailyBudget: 5, answersToday: 2, ahead: 2 }), 'ai'],
  [
    'no credit and no budget: credits first',
    snap({ balance: 0, dailyBudget: 1, answersToday: 1 }),
    'no_credits',
  ],
  ['within the free allowance: the AI', snap({ freeAllowance: 5, fanAnswersThisMonth: 4 }), 'ai'],
  ['the allowance spent: the paywall', snap({ freeAllowance: 5, fanAnswersThisMonth: 5 }), 'paywall'],
  [
    'the last free answer taken by the fan’s own question ahead',
    snap({ freeAllowance: 5, fanAnswersThisMonth: 4, fanAhead: 1 }),
    'paywall',
  ],
  [
    'other fans’ questions ahead do not spend this fan’s allowance',
    snap({ freeAllowance: 5, fanAnswersThisMonth: 4, ahead: 3 }),
    'ai',
  ],
  [
    'a subscriber past the allowance: the AI',
    snap({ freeAllowance: 5, fanAnswersThisMonth: 50, fanSubscribed: true }),
    'ai',
  ],
  ['no plan (null allowance): never a paywall', snap({ fanAnswersThisMonth: 500 }), 'ai'],
  ['an allowance of 0: the paywall at once', snap({ freeAllowance: 0 }), 'paywall'],
  [
    'the creator Online answers even past the allowance',
    snap({ creatorOnline: true, freeAllowance: 1, fanAnswersThisMonth: 3 }),
    'creator_online',
  ],
  [
    'past the allowance and out of credits: the paywall first',
    snap({ freeAllowance: 1, fanAnswersThisMonth: 1, balance: 0 }),
    'paywall',
  ],
  [
    'a subscriber still needs the creator’s credits (record 0043)',
    snap({ freeAllowance: 1, fanAnswersThisMonth: 9, fanSubscribed: true, balance: 0 }),
    'no_credits',
  ],
];

describe('the answer policy (pure)', () => {
  it.each(TABLE)('%s', (_name, snapshot, expected) => {
    expect(decideAnswer(snapshot)).toBe(expected);
  });
});

/** Every combination of a few values on each side of every boundary. */
function grid(): AnswerSnapshot[] {
  const out: AnswerSnapshot[] = [];
  for (const creatorOnline of [false, true])
    for (const dailyBudget of [null, 1, 3])
      for (const balance of [-1, 0, PRICE, 2 * PRICE, 3 * PRICE])
        for (const answersToday of [0, 1, 2, 3])
          for (const ahead of [0, 1, 2])
            out.push({ creatorOnline, dailyBudget, balance, answersToday, ahead, ...NO_FAN });
  // The fan's side, around the allowance's boundary.
  for (const creatorOnline of [false, true])
    for (const freeAllowance of [null, 0, 2])
      for (const fanSubscribed of [false, true])
        for (const fanAnswersThisMonth of [0, 1, 2, 3])
          for (const fanAhead of [0, 1])
            for (const balance of [0, 3 * PRICE])
              out.push({
                ...base,
                creatorOnline,
                balance,
                freeAllowance,
                fanSubscribed,
                fanAnswersThisMonth,
                fanAhead,
              });
  return out;
}

describe('against a database', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const opened = await openTestDb(process.env.TEST_DATABASE_URL, 4);
    handle = opened.handle;
    close = opened.close;
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  /** A creator with a chatbot (unless `chatbot: false`) and a grant of `credits`. */
  const seed = async (
    options: { credits?: number; budget?: number; online?: boolean; chatbot?: boolean } = {},
  ) => {
    const tag = randomUUID().slice(0, 8);
    const creator = await db()
      .insertInto('creators')
      .values({
        google_sub: `sub-${tag}`,
        email: `${tag}@example.com`,
        name: 'Bea',
        username: `c-${tag}`,
        description: '',
        onboarding_complete: true,
        is_online: options.online ?? false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (options.chatbot !== false) {
      await db()
        .insertInto('chatbots')
        .values({
          creator_id: creator.id,
          name: 'Crumb',
          instructions: '',
          model: 'gpt-4o-mini',
          temperature: 0.3,
          initial_messages: '[]',
          ...(options.budget !== undefined ? { daily_ai_budget: options.budget } : {}),
        })
        .execute();
    }
    if (options.credits !== undefined && options.credits !== 0) {
      await db()
        .insertInto('credit_ledger')
        .values({ creator_id: creator.id, delta: options.credits, reason: 'adjustment' })
        .execute();
    }
    let n = 0;
    const ask = async (createdAt?: Date): Promise<string> => {
      const fan = await db()
        .insertInto('fans')
        .values({ creator_id: creator.id, fan_key: `fan_${tag}_${n}`, name: `Fan ${n}` })
        .returning('id')
        .executeTakeFirstOrThrow();
      n++;
      const row = await db()
        .insertInto('messages')
        .values({
          creator_id: creator.id,
          fan_id: fan.id,
          sender: 'fan',
          body: `Question ${n}?`,
          status: 'pending',
          fan_name: `Fan ${n}`,
          ...(createdAt ? { created_at: createdAt } : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return String(row.id);
    };
    /** An AI answer's charge, dated `at`, for a question asked (and answered) now. */
    const charged = async (at: Date) => {
      const q = await ask();
      await db().updateTable('messages').set({ status: 'answered' }).where('id', '=', q).execute();
      await db()
        .insertInto('credit_ledger')
        .values({ creator_id: creator.id, delta: -PRICE, reason: 'ai_answer', message_id: q, created_at: at })
        .execute();
    };
    return { creatorId: String(creator.id), ask, charged };
  };

  it('the SQL rendering decides as the pure function does, on every snapshot of the table and a grid', async () => {
    const snapshots = [...TABLE.map(([, s]) => s), ...grid()];
    const rows = sql.join(
      snapshots.map(
        (s, i) =>
          sql`(${i}::integer, ${s.creatorOnline}::boolean, ${s.dailyBudget}::integer, ${s.balance}::bigint, ${s.answersToday}::bigint, ${s.ahead}::bigint, ${s.freeAllowance}::integer, ${s.fanSubscribed}::boolean, ${s.fanAnswersThisMonth}::bigint, ${s.fanAhead}::bigint)`,
      ),
    );
    const v = (c: string) => sql.ref(`v.${c}`) as never;
    const result = await sql<{ i: number; kind: AnswerDecisionKind; ai: boolean }>`
      select v.i, ${answerDecisionSql({
        creatorOnline: v('creator_online'),
        dailyBudget: v('daily_budget'),
        balance: v('balance'),
        answersToday: v('answers_today'),
        ahead: v('ahead'),
        freeAllowance: v('free_allowance'),
        fanSubscribed: v('fan_subscribed'),
        fanAnswersThisMonth: v('fan_answers_month'),
        fanAhead: v('fan_ahead'),
      })} as kind, ${aiAnswersSql({
        creatorOnline: v('creator_online'),
        dailyBudget: v('daily_budget'),
        balance: v('balance'),
        answersToday: v('answers_today'),
        ahead: v('ahead'),
        freeAllowance: v('free_allowance'),
        fanSubscribed: v('fan_subscribed'),
        fanAnswersThisMonth: v('fan_answers_month'),
        fanAhead: v('fan_ahead'),
      })} as ai
      from (values ${rows}) as v(i, creator_online, daily_budget, balance, answers_today, ahead,
        free_allowance, fan_subscribed, fan_answers_month, fan_ahead)
      order by v.i`.execute(db());
    expect(result.rows).toHaveLength(snapshots.length);
    const fromSql = result.rows.map((r) => ({ kind: r.kind, ai: r.ai }));
    const fromTs = snapshots.map((s) => ({ kind: decideAnswer(s), ai: decideAnswer(s) === 'ai' }));
    expect(fromSql).toEqual(fromTs);
    // The grid reaches every outcome, so the agreement is not vacuous.
    expect(new Set(fromTs.map((d) => d.kind))).toEqual(
      new Set(['ai', 'creator_online', 'paywall', 'no_credits', 'no_chatbot', 'over_budget']),
    );
  });

  it('the loader reads status, chatbot budget, balance, today’s answers and the queue ahead in one snapshot', async () => {
    const now = new Date();
    const c = await seed({ credits: 7, budget: 4 });
    const old = await c.ask(new Date(now.getTime() - 2 * 3_600_000)); // outside the fairness window
    await c.charged(new Date(startOfUtcDay(now).getTime() - 1)); // yesterday's last millisecond
    await c.charged(startOfUtcDay(now)); // today's first
    await c.charged(now);
    const first = await c.ask();
    const second = await c.ask();
    const snapshot = await loadAnswerSnapshot(db(), c.creatorId, { now });
    expect(snapshot).toEqual({
      creatorOnline: false,
      dailyBudget: 4,
      balance: 7 - 3 * PRICE,
      answersToday: 2,
      ahead: 0,
      ...NO_FAN,
    });
    const ofSecond = await loadAnswerSnapshot(db(), c.creatorId, { now, questionId: second });
    expect(ofSecond?.ahead).toBe((await answerPriority(db(), second, now)) - 1);
    expect(await answerPriority(db(), second, now)).toBe((await answerPriority(db(), first, now)) + 1);
    expect(await answerPriority(db(), old, now)).toBe(1);
    // The old question still waits, but outside the fairness window; the answered ones do not count.
    expect(await answerPriority(db(), first, now)).toBe(1);
    expect(ofSecond?.ahead).toBe(1);
    // Tomorrow the budget starts afresh.
    const tomorrow = new Date(startOfUtcDay(now).getTime() + 86_400_000);
    expect((await loadAnswerSnapshot(db(), c.creatorId, { now: tomorrow }))?.answersToday).toBe(0);
    expect(await loadAnswerSnapshot(db(), randomUUID())).toBeUndefined();
  });

  it('a creator without a chatbot has a null budget; an Online creator reads as Online', async () => {
    const none = await seed({ credits: 5, chatbot: false });
    expect(await loadAnswerSnapshot(db(), none.creatorId)).toMatchObject({ dailyBudget: null, balance: 5 });
    expect(await aiRefusal(db(), none.creatorId)).toBe('no_chatbot');
    const online = await seed({ credits: 5, online: true });
    expect(await loadAnswerSnapshot(db(), online.creatorId)).toMatchObject({ creatorOnline: true });
    // The public card's "AI available" leaves the status aside.
    expect(await aiRefusal(db(), online.creatorId)).toBeNull();
  });

  it('the forecast counts the questions ahead: a burst is promised only what credits and budget hold', async () => {
    const byCredits = await seed({ credits: 2 * PRICE, budget: 10 });
    const a = [await byCredits.ask(), await byCredits.ask(), await byCredits.ask()];
    const forecasts = await Promise.all(a.map((id) => forecastAnswer(db(), byCredits.creatorId, id)));
    expect(forecasts).toEqual([
      { decision: 'ai', priority: 1 },
      { decision: 'ai', priority: 2 },
      { decision: 'no_credits', priority: 3 },
    ]);
    const byBudget = await seed({ credits: 100, budget: 3 });
    await byBudget.charged(new Date());
    const b = [await byBudget.ask(), await byBudget.ask(), await byBudget.ask()];
    expect(
      (await Promise.all(b.map((id) => forecastAnswer(db(), byBudget.creatorId, id)))).map((f) => f.decision),
    ).toEqual(['ai', 'ai', 'over_budget']);
  });

  it('the sweep’s query over every creator agrees with the loader and the pure function', async () => {
    const now = new Date();
    const creators = [
      await seed({ credits: 3, budget: 5 }),
      await seed({ credits: 0, budget: 5 }),
      await seed({ credits: 3, budget: 1 }),
      await seed({ credits: 3, chatbot: false }),
      await seed({ credits: 3, online: true }),
    ];
    await creators[2]!.charged(now);
    const ids = creators.map((c) => c.creatorId);
    const result = await sql<{ id: string; ai: boolean }>`
      with s as (select c.id, ${snapshotColumns(now)}, false as fan_subscribed, 0 as fan_answers_month
        from creators c where c.id in (${sql.join(ids)}))
      select s.id, ${aiAnswersSql(snapshotRefs('s', sql`0`, sql`0`))} as ai from s`.execute(db());
    const fromSql = Object.fromEntries(result.rows.map((r) => [String(r.id), r.ai]));
    const fromTs: Record<string, boolean> = {};
    for (const id of ids) {
      const snapshot = await loadAnswerSnapshot(db(), id, { now });
      fromTs[id] = decideAnswer(snapshot!) === 'ai';
    }
    expect(fromSql).toEqual(fromTs);
    expect(Object.values(fromTs)).toEqual([true, false, false, false, false]);
  });

  describe('credits', () => {
    it('the sign-up grant gives FREE_CREDITS; the balance is the ledger’s sum', async () => {
      const c = await seed({ credits: 0 });
      await grantFreeCredits(db(), c.creatorId);
      expect((await loadAnswerSnapshot(db(), c.creatorId))?.balance).toBe(FREE_CREDITS);
      await db()
        .insertInto('credit_ledger')
        .values({ creator_id: c.creatorId, delta: -3, reason: 'adjustment' })
        .execute();
      expect((await loadAnswerSnapshot(db(), c.creatorId))?.balance).toBe(FREE_CREDITS - 3);
    });

    it('an AI answer is charged once per question, however often the charge is written', async () => {
      const c = await seed({ credits: 10 });
      const q = await c.ask();
      await chargeAiAnswer(db(), c.creatorId, q);
      await chargeAiAnswer(db(), c.creatorId, q);
      const snapshot = await loadAnswerSnapshot(db(), c.creatorId);
      expect(snapshot).toMatchObject({ balance: 10 - PRICE, answersToday: 1 });
    });

    it('usage reports today’s answers against the budget, reached exactly at the budget', async () => {
      const c = await seed({ credits: 10, budget: 2 });
      const usage = () => creditsRepository(db()).usage(c.creatorId);
      expect(await usage()).toMatchObject({ aiAnswersToday: 0, dailyAiBudget: 2, aiBudgetReached: false });
      await c.charged(new Date());
      expect(await usage()).toMatchObject({
        aiAnswersToday: 1,
        aiBudgetReached: false,
        creditsRemaining: 10 - PRICE,
      });
      await c.charged(new Date());
      expect(await usage()).toMatchObject({ aiAnswersToday: 2, aiBudgetReached: true });
      const none = await seed({ chatbot: false });
      expect(await creditsRepository(db()).usage(none.creatorId)).toMatchObject({
        dailyAiBudget: DEFAULT_DAILY_AI_BUDGET,
        aiBudgetReached: false,
      });
    });
    it('a ledger write announces the public face exactly when it changes whether the AI can answer', async () => {
      // The change feed's trigger no longer states the rule (migration 2026-11-25T01-00): the
      // public face's version (scope 'p') moves when core's writeLedger sees aiRefusal flip.
      const c = await seed({ credits: 0, budget: 2 });
      const version = async () =>
        (
          await db()
            .selectFrom('change_versions')
            .select('version')
            .where('scope', '=', 'p')
            .where('id', '=', c.creatorId)
            .executeTakeFirst()
        )?.version;
      const v0 = await version();
      await adjustCredits(db(), c.creatorId, 10); // no credits -> the AI can answer
      const v1 = await version();
      expect(v1).not.toBe(v0);
      await adjustCredits(db(), c.creatorId, 5); // still can: nothing to announce
      expect(await version()).toBe(v1);
      await chargeAiAnswer(db(), c.creatorId, await c.ask()); // 1 of 2 answers today: still can
      expect(await version()).toBe(v1);
      await chargeAiAnswer(db(), c.creatorId, await c.ask()); // the budget reached: it cannot
      const v2 = await version();
      expect(v2).not.toBe(v1);
      await adjustCredits(db(), c.creatorId, -15 + 2 * PRICE); // balance 0
      expect(await loadAnswerSnapshot(db(), c.creatorId)).toMatchObject({ balance: 0 });
      // over_budget became no_credits: a different refusal, announced too.
      expect(await version()).not.toBe(v2);
    });
  });

  describe('storing the AI answer', () => {
    const answer = (creatorId: string, questionId: string, now = new Date()) =>
      storeAiAnswer(db(), {
        questionId,
        creatorId,
        body: 'Two hours at 24 °C.',
        sources: [],
        gap: false,
        now,
      });
    const state = async (questionId: string) => ({
      status: (
        await db().selectFrom('messages').select('status').where('id', '=', questionId).executeTakeFirst()
      )?.status,
      replies: (await db().selectFrom('messages').select('id').where('reply_to', '=', questionId).execute())
        .length,
      charges: (
        await db().selectFrom('credit_ledger').select('id').where('message_id', '=', questionId).execute()
      ).length,
    });

    it('stores the reply, charges one credit and marks the question answered, once', async () => {
      const c = await seed({ credits: 5 });
      const q = await c.ask();
      const first = await answer(c.creatorId, q);
      expect(first.outcome).toBe('answered');
      expect(first.replyId).toBeDefined();
      expect((await answer(c.creatorId, q)).outcome).toBe('already_answered');
      expect(await state(q)).toEqual({ status: 'answered', replies: 1, charges: 1 });
      expect((await loadAnswerSnapshot(db(), c.creatorId))?.balance).toBe(5 - PRICE);
    });

    it.each([
      ['creator_online', { credits: 5, online: true }],
      ['no_credits', { credits: 0 }],
      ['no_chatbot', { credits: 5, chatbot: false }],
      ['over_budget', { credits: 5, budget: 1, chargedToday: 1 }],
    ] as const)('refuses with %s and leaves the question as it was', async (outcome, options) => {
      const c = await seed(options);
      if ('chargedToday' in options) await c.charged(new Date());
      const q = await c.ask();
      expect((await answer(c.creatorId, q)).outcome).toBe(outcome);
      expect(await state(q)).toEqual({ status: 'pending', replies: 0, charges: 0 });
    });

    it('the budget counts by the injected clock: yesterday’s answers do not use up today', async () => {
      const c = await seed({ credits: 5, budget: 1 });
      const now = new Date();
      await c.charged(now);
      const q = await c.ask();
      const tomorrow = new Date(startOfUtcDay(now).getTime() + 86_400_000 + 1);
      expect((await answer(c.creatorId, q, now)).outcome).toBe('over_budget');
      expect((await answer(c.creatorId, q, tomorrow)).outcome).toBe('answered');
    });

    it('racing answers never share the last credit', async () => {
      const c = await seed({ credits: PRICE });
      const qs = [await c.ask(), await c.ask(), await c.ask()];
      const outcomes = await Promise.all(qs.map((q) => answer(c.creatorId, q)));
      expect(outcomes.filter((o) => o.outcome === 'answered')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'no_credits')).toHaveLength(2);
      expect((await loadAnswerSnapshot(db(), c.creatorId))?.balance).toBe(0);
    });
  });
});
