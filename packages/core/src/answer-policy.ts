import { CREDITS_PER_AI_ANSWER } from '@fanpilot/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from './db.ts';
import {
  circleAheadSql,
  circleAnswersThisMonthSql,
  fanSubscribedSql,
  pastFreeAllowance,
  pastFreeAllowanceSql,
} from './entitlement.ts';

// The answer policy: may the creator's AI answer a fan's question? It is written ONCE, here, as a
// list of rules in two renderings side by side (a TypeScript test over a snapshot, and the same test
// as SQL over columns), so the ask forecast, the answer handler's pre-check, the locked write and
// the answer sweep's query all follow the same rule. answer-policy.test.ts proves the two renderings
// agree on a table of snapshots against a real database; policy-scan.test.ts fails if a balance or
// budget comparison appears anywhere else.

/**
 * What the policy decides on: the creator's state as one query reads it (loadAnswerSnapshot, or
 * the sweep's snapshotColumns for every creator at once), and the asking fan's plan: the free
 * allowance and subscription (record 0043).
 */
export interface AnswerSnapshot {
  /** The creator is Online: they answer their fans themselves. */
  creatorOnline: boolean;
  /** The chatbot's daily AI answer budget; null when the creator has no chatbot. */
  dailyBudget: number | null;
  /** The creator's credit balance (the ledger's sum). */
  balance: number;
  /** AI answers charged since midnight UTC. */
  answersToday: number;
  /**
   * The creator's questions that will be answered before this one (0: this one is next). The
   * forecast and the sweep count the queue ahead, so a burst of questions is not promised more
   * answers than the credits and the budget hold; the answer itself is always the next one.
   */
  ahead: number;
  /**
   * The creator's free AI answers per fan per month while their fan plan is live (on, and the
   * creator can take payments); null: no paywall, fans are answered as the other rules say.
   */
  freeAllowance: number | null;
  /** The fan holds a subscription that opens the chat now (paid, trialing, in grace, or to period end). */
  fanSubscribed: boolean;
  /** AI answers this fan got since midnight UTC on the 1st of the month. */
  fanAnswersThisMonth: number;
  /** This fan's own questions waiting ahead of this one (0: this one is next). */
  fanAhead: number;
}

/** The snapshot's fan fields when no fan is concerned (creator-wide questions). */
export const NO_FAN = {
  freeAllowance: null,
  fanSubscribed: false,
  fanAnswersThisMonth: 0,
  fanAhead: 0,
} as const;

/** Why the AI does not answer (the creator does), in the order the rules are checked. */
export type AnswerRefusal = 'creator_online' | 'paywall' | 'no_credits' | 'no_chatbot' | 'over_budget';
/** Who answers: the AI, or the creator for the reason given. */
export type AnswerDecisionKind = 'ai' | AnswerRefusal;

/** The snapshot's fields as SQL expressions (columns of a query, or parameters). */
export type SnapshotSql = { [K in keyof AnswerSnapshot]: RawBuilder<unknown> };

interface Rule {
  kind: AnswerRefusal;
  /** The rule over a snapshot in memory. */
  applies: (s: AnswerSnapshot) => boolean;
  /** The same rule over SQL expressions. */
  sql: (s: SnapshotSql) => RawBuilder<unknown>;
}

/** Whether `answers` AI answers use up a daily budget of `budget` (the budget has no room left). */
export function budgetReached(answers: number, budget: number): boolean {
  return answers >= budget;
}

const PRICE = sql.lit(CREDITS_PER_AI_ANSWER);

/**
 * Whether a balance pays for `count` pieces of AI work at one answer's price each: answers to fans
 * (the no_credits rule below), or a reply the AI drafts for the creator (reply-drafts.ts).
 */
export function creditsCover(balance: number, count = 1): boolean {
  return balance / CREDITS_PER_AI_ANSWER >= count;
}

/** The rules, first match wins; none matching: the AI answers. */
const RULES: readonly Rule[] = [
  { kind: 'creator_online', applies: (s) => s.creatorOnline, sql: (s) => sql`${s.creatorOnline}` },
  {
    // Past the free allowance without a subscription: the fan sees the paywall; the creator can
    // still answer personally. Before credits: subscribing is what the fan can do about it.
    kind: 'paywall',
    applies: (s) => pastFreeAllowance(s),
    sql: (s) => pastFreeAllowanceSql(s),
  },
  {
    // A credit for this answer and for every answer ahead of it.
    kind: 'no_credits',
    applies: (s) => !creditsCover(s.balance, s.ahead + 1),
    sql: (s) => sql`${s.balance} < (${s.ahead} + 1) * ${PRICE}`,
  },
  { kind: 'no_chatbot', applies: (s) => s.dailyBudget === null, sql: (s) => sql`${s.dailyBudget} is null` },
  {
    // Room in today's budget for this answer and every answer ahead of it.
    kind: 'over_budget',
    applies: (s) => s.dailyBudget !== null && budgetReached(s.answersToday + s.ahead, s.dailyBudget),
    sql: (s) => sql`${s.answersToday} + ${s.ahead} >= ${s.dailyBudget}`,
  },
];

/** Who answers the question the snapshot describes: the AI, or the creator and why. */
export function decideAnswer(snapshot: AnswerSnapshot): AnswerDecisionKind {
  return RULES.find((rule) => rule.applies(snapshot))?.kind ?? 'ai';
}

/** decideAnswer as a SQL expression over the snapshot's columns: the same rules, in the same order. */
export function answerDecisionSql(s: SnapshotSql): RawBuilder<AnswerDecisionKind> {
  const whens = RULES.map((rule) => sql`when ${rule.sql(s)} then ${sql.lit(rule.kind)}`);
  return sql<AnswerDecisionKind>`(case ${sql.join(whens, sql` `)} else 'ai' end)`;
}

/** The SQL condition "decideAnswer says the AI answers". */
export function aiAnswersSql(s: SnapshotSql): RawBuilder<boolean> {
  return sql<boolean>`${answerDecisionSql(s)} = 'ai'`;
}

/** Midnight UTC at the start of `now`'s day: the daily AI answer budget starts afresh then. */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The day (YYYY-MM-DD, UTC) whose AI answer budget `now` counts against: one budget alert a day. */
export function budgetDayOf(now: Date): string {
  return startOfUtcDay(now).toISOString().slice(0, 10);
}

/** Only a creator's questions of the last hour count towards the queue position of their next one. */
export const FAIRNESS_WINDOW_MS = 3_600_000;

/**
 * The snapshot's creator-wide columns for the creator row `c` (a `creators` row aliased `c`):
 * creator_online, daily_budget, balance, answers_today. The loader reads one creator with them,
 * the answer sweep every creator with pending questions.
 */
export function snapshotColumns(now: Date): RawBuilder<unknown> {
  return sql`c.is_online as creator_online,
    (select b.daily_ai_budget from chatbots b where b.creator_id = c.id limit 1) as daily_budget,
    coalesce((select t.balance from credit_totals t where t.creator_id = c.id), 0) as balance,
    (select count(*) from credit_ledger l where l.creator_id = c.id and l.reason = 'ai_answer'
      and l.created_at >= ${startOfUtcDay(now)}) as answers_today,
    (select p.free_answers from fan_plans p join creator_payout_accounts a on a.creator_id = p.creator_id
      where p.creator_id = c.id and p.enabled and a.charges_enabled) as free_allowance`;
}

/**
 * The snapshot's fan columns for the fan `fan` (an SQL expression of a fans.id, possibly null), as
 * the entitlement defines them: fan_subscribed (a subscription of the fan's circle opens the chat
 * at `now`) and fan_answers_month (AI answers to the fan's circle this month).
 */
export function fanSnapshotColumns(
  fan: RawBuilder<unknown>,
  now: Date,
  /** When given, the fan columns are read only where this holds (a plan is live): the sweep's saving. */
  planLive?: RawBuilder<unknown>,
): RawBuilder<unknown> {
  if (planLive) {
    return sql`case when ${planLive} then ${fanSubscribedSql(fan, now)} else false end as fan_subscribed,
      case when ${planLive} then ${circleAnswersThisMonthSql(fan, now)} else 0 end as fan_answers_month`;
  }
  return sql`${fanSubscribedSql(fan, now)} as fan_subscribed,
    ${circleAnswersThisMonthSql(fan, now)} as fan_answers_month`;
}

/** The columns snapshotColumns names, as SQL references (prefix: the relation they come from). */
export function snapshotRefs(
  prefix: string,
  ahead: RawBuilder<unknown>,
  fanAhead: RawBuilder<unknown>,
): SnapshotSql {
  const ref = (column: string) => sql.ref(`${prefix}.${column}`) as unknown as RawBuilder<unknown>;
  return {
    creatorOnline: ref('creator_online'),
    dailyBudget: ref('daily_budget'),
    balance: ref('balance'),
    answersToday: ref('answers_today'),
    ahead,
    freeAllowance: ref('free_allowance'),
    fanSubscribed: ref('fan_subscribed'),
    fanAnswersThisMonth: ref('fan_answers_month'),
    fanAhead,
  };
}

/**
 * The answer queue's fairness, as SQL: the creator's questions still waiting that were asked
 * before `questionId` (in the last hour). A question's priority is 1 + this, and lower runs first,
 * so one creator's 300th question queues behind every other creator's 1st to 299th.
 */
function waitingAheadSql(questionId: string, now: Date): RawBuilder<unknown> {
  return sql`(select count(*) from messages m join messages p on p.creator_id = m.creator_id
    where m.id = ${questionId} and p.status = 'pending' and p.sender = 'fan' and p.id < m.id
      and p.ai_handed_over_at is null
      and p.created_at >= ${new Date(now.getTime() - FAIRNESS_WINDOW_MS)})`;
}

/** The fan's circle's questions still waiting that were asked before `questionId` (the entitlement's count). */
function fanAheadSql(questionId: string): RawBuilder<unknown> {
  return circleAheadSql(
    sql`${questionId}`,
    sql`(select q.fan_id from messages q where q.id = ${questionId})`,
  );
}

interface SnapshotRow {
  creator_online: boolean;
  daily_budget: number | null;
  balance: string | number;
  answers_today: string | number;
  ahead: string | number;
  free_allowance: number | null;
  fan_subscribed: boolean;
  fan_answers_month: string | number;
  fan_ahead: string | number;
}

/**
 * The creator's answer snapshot in one query (inside a transaction too: the locked write reads it
 * after taking the creator's row lock). With `questionId`, `ahead` and `fanAhead` count that
 * question's place in its creator's queue and its fan's; with `answering` (the question about to be
 * answered) they are 0; either way the fan fields are that question's fan's. Neither: the
 * creator-wide snapshot, no fan concerned (no paywall). Undefined: no such creator.
 */
export async function loadAnswerSnapshot(
  db: Db,
  creatorId: string,
  options: { now?: Date; questionId?: string; answering?: string } = {},
): Promise<AnswerSnapshot | undefined> {
  const now = options.now ?? new Date();
  const question = options.questionId ?? options.answering;
  const ahead = options.questionId ? waitingAheadSql(options.questionId, now) : sql`0`;
  const fanAhead = options.questionId ? fanAheadSql(options.questionId) : sql`0`;
  const fan = question
    ? fanSnapshotColumns(sql`(select q.fan_id from messages q where q.id = ${question})`, now)
    : sql`false as fan_subscribed, 0 as fan_answers_month`;
  const result = await sql<SnapshotRow>`select ${snapshotColumns(now)}, ${ahead} as ahead,
      ${fan}, ${fanAhead} as fan_ahead
    from creators c where c.id = ${creatorId}`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    creatorOnline: row.creator_online,
    dailyBudget: row.daily_budget === null ? null : Number(row.daily_budget),
    balance: Number(row.balance),
    answersToday: Number(row.answers_today),
    ahead: Number(row.ahead),
    // Without a fan, no paywall: the creator-wide questions (the public card, the credits state).
    freeAllowance: question && row.free_allowance !== null ? Number(row.free_allowance) : null,
    fanSubscribed: row.fan_subscribed,
    fanAnswersThisMonth: Number(row.fan_answers_month),
    fanAhead: Number(row.fan_ahead),
  };
}

/** A question's place in the answer queue: 1 + the creator's questions waiting ahead of it. */
export async function answerPriority(db: Db, questionId: string, now: Date = new Date()): Promise<number> {
  const result = await sql<{ n: string }>`select ${waitingAheadSql(questionId, now)} as n`.execute(db);
  return 1 + Number(result.rows[0]?.n ?? 0);
}

/**
 * What the api tells the fan who just asked: whether the AI will answer this pending question
 * (the creator Offline, a chatbot, and credits and room in today's budget for it after the
 * creator's questions already waiting ahead of it), and its place in the answer queue, read once.
 */
export async function forecastAnswer(
  db: Db,
  creatorId: string,
  questionId: string,
  now: Date = new Date(),
): Promise<{ decision: AnswerDecisionKind; priority: number }> {
  const snapshot = await loadAnswerSnapshot(db, creatorId, { now, questionId });
  if (!snapshot) return { decision: 'no_chatbot', priority: 1 };
  return { decision: decideAnswer(snapshot), priority: snapshot.ahead + 1 };
}

/** Why the AI would not answer the creator's next question were they Offline (null: it would). */
export type AiRefusal = Exclude<AnswerRefusal, 'creator_online'>;

/**
 * Whether the creator's AI may answer one more question when they are Offline (the public card
 * shows the Online status apart): a chatbot, a credit left and today's budget not used up.
 */
export async function aiRefusal(
  db: Db,
  creatorId: string,
  now: Date = new Date(),
): Promise<AiRefusal | null> {
  const snapshot = await loadAnswerSnapshot(db, creatorId, { now });
  if (!snapshot) return 'no_chatbot';
  const decision = decideAnswer({ ...snapshot, creatorOnline: false });
  return decision === 'ai' || decision === 'creator_online' ? null : decision;
}

/** The creator's AI answers since midnight UTC, counted from the ledger (one charge per answer). */
export async function aiAnswersToday(db: Db, creatorId: string, now: Date = new Date()): Promise<number> {
  return (await loadAnswerSnapshot(db, creatorId, { now }))?.answersToday ?? 0;
}
