import { AI_SENDER } from '@fanpilot/contracts';
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { openKnowledgeGaps } from '../knowledge-gaps.ts';

export const INSIGHT_PERIODS = [7, 30, 90] as const;
export type InsightPeriod = (typeof INSIGHT_PERIODS)[number];

export interface TopicRow {
  id: string;
  label: string;
  namedBy: 'model' | 'keywords';
  questions: number;
  /** Questions in the period before, of the same length. */
  previous: number;
  answeredByAi: number;
  handedOver: number;
  ratingsUp: number;
  ratingsDown: number;
  /** The newest questions (with the fan, to open the conversation). */
  examples: { id: string; question: string; fanId: string | null; askedAt: Date }[];
}

export interface GapRow {
  /** The newest question's wording, and the topic its questions belong to (null: not grouped yet). */
  question: string;
  topic: string | null;
  questions: number;
  fans: number;
  lastAskedAt: Date;
  questionIds: string[];
}

export interface FunnelRow {
  /** The day or week (its first day) the row counts. */
  start: Date;
  opened: number;
  asked: number;
  metPaywall: number;
  subscribed: number;
  earningsCents: number;
}

export interface QualityRow {
  start: Date;
  questions: number;
  answeredByAi: number;
  handedOver: number;
  ratingsUp: number;
  ratingsDown: number;
  /** Median seconds from the question to its first answer (null: none answered). */
  medianFirstAnswerSeconds: number | null;
}

export interface InsightsReport {
  period: InsightPeriod;
  from: Date;
  to: Date;
  bucket: 'day' | 'week';
  topics: TopicRow[];
  gaps: GapRow[];
  funnel: FunnelRow[];
  quality: QualityRow[];
}

const num = (n: unknown) => Number(n ?? 0);
const DAY = 86_400_000;
/** Topics and gaps shown (most asked first). */
export const INSIGHT_TOPICS_SHOWN = 30;
export const INSIGHT_GAPS_SHOWN = 30;
const EXAMPLES = 3;

/** The topics of the period: questions, trend, AI share, ratings and examples, most asked first. */
export async function topicRows(db: Db, creatorId: string, from: Date, to: Date): Promise<TopicRow[]> {
  const previousFrom = new Date(from.getTime() - (to.getTime() - from.getTime()));
  const rows = await db
    .selectFrom('question_topic_members as m')
    .innerJoin('question_topics as t', 't.id', 'm.topic_id')
    .innerJoin('messages as q', 'q.id', 'm.message_id')
    .leftJoin('messages as a', (j) => j.onRef('a.reply_to', '=', 'q.id').on('a.sender', '=', AI_SENDER))
    .select([
      't.id',
      't.label',
      't.named_by',
      sql<number>`count(*) filter (where m.asked_at >= ${from})`.as('questions'),
      sql<number>`count(*) filter (where m.asked_at < ${from})`.as('previous'),
      sql<number>`count(*) filter (where m.asked_at >= ${from} and a.id is not null and q.ai_handed_over_at is null)`.as(
        'answered',
      ),
      sql<number>`count(*) filter (where m.asked_at >= ${from} and a.fan_rating = 'up')`.as('up'),
      sql<number>`count(*) filter (where m.asked_at >= ${from} and a.fan_rating = 'down')`.as('down'),
    ])
    .where('m.creator_id', '=', creatorId)
    .where('m.asked_at', '>=', previousFrom)
    .where('m.asked_at', '<', to)
    .groupBy(['t.id', 't.label', 't.named_by'])
    .having(sql`count(*) filter (where m.asked_at >= ${from})`, '>', 0)
    .orderBy(sql`count(*) filter (where m.asked_at >= ${from})`, 'desc')
    .orderBy('t.id')
    .limit(INSIGHT_TOPICS_SHOWN)
    .execute();
  if (rows.length === 0) return [];
  const examples = await db
    .selectFrom('question_topics as t')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('question_topic_members as m')
          .innerJoin('messages as q', 'q.id', 'm.message_id')
          .select(['q.id', 'q.body', 'q.fan_id', 'm.asked_at'])
          .whereRef('m.topic_id', '=', 't.id')
          .where('m.asked_at', '>=', from)
          .where('m.asked_at', '<', to)
          .orderBy('m.asked_at', 'desc')
          .limit(EXAMPLES)
          .as('e'),
      (j) => j.onTrue(),
    )
    .select(['t.id as topic_id', 'e.id', 'e.body', 'e.fan_id', 'e.asked_at'])
    .where(
      't.id',
      'in',
      rows.map((r) => String(r.id)),
    )
    .execute();
  return rows.map((r) => {
    const questions = num(r.questions);
    const answeredByAi = num(r.answered);
    return {
      id: String(r.id),
      label: r.label,
      namedBy: r.named_by === 'model' ? 'model' : 'keywords',
      questions,
      previous: num(r.previous),
      answeredByAi,
      handedOver: questions - answeredByAi,
      ratingsUp: num(r.up),
      ratingsDown: num(r.down),
      examples: examples
        .filter((e) => String(e.topic_id) === String(r.id))
        .sort((a, b) => new Date(b.asked_at).getTime() - new Date(a.asked_at).getTime())
        .map((e) => ({
          id: String(e.id),
          question: e.body.replace(/\s+/g, ' ').slice(0, 300),
          fanId: e.fan_id,
          askedAt: new Date(e.asked_at),
        })),
    };
  });
}

/**
 * What to make next: the open gaps asked in the period, grouped (questions of one topic together,
 * the rest by their words), most fans first.
 */
export async function gapRows(db: Db, creatorId: string, from: Date, to: Date): Promise<GapRow[]> {
  const groups = (await openKnowledgeGaps(db, creatorId, to)).filter((g) => g.lastAskedAt >= from);
  const ids = groups.flatMap((g) => g.questionIds);
  const topics =
    ids.length === 0
      ? []
      : await db
          .selectFrom('question_topic_members as m')
          .innerJoin('question_topics as t', 't.id', 'm.topic_id')
          .select(['m.message_id', 't.id', 't.label'])
          .where('m.creator_id', '=', creatorId)
          .where('m.message_id', 'in', ids)
          .execute();
  const topicOf = new Map(topics.map((t) => [String(t.message_id), { id: String(t.id), label: t.label }]));
  const merged = new Map<string, { topic: string | null; members: typeof groups }>();
  for (const g of groups) {
    const topic = g.questionIds.map((id) => topicOf.get(id)).find(Boolean);
    const key = topic ? `topic:${topic.id}` : `words:${g.questionIds[0]}`;
    const home = merged.get(key) ?? { topic: topic?.label ?? null, members: [] };
    home.members.push(g);
    merged.set(key, home);
  }
  return [...merged.values()]
    .map(({ topic, members }) => {
      const newest = [...members].sort((a, b) => b.lastAskedAt.getTime() - a.lastAskedAt.getTime())[0]!;
      return {
        question: newest.question,
        topic,
        questions: members.reduce((a, g) => a + g.count, 0),
        fans: members.reduce((a, g) => a + g.fans, 0),
        lastAskedAt: newest.lastAskedAt,
        questionIds: members.flatMap((g) => g.questionIds),
      };
    })
    .sort(
      (a, b) =>
        b.fans - a.fans || b.questions - a.questions || b.lastAskedAt.getTime() - a.lastAskedAt.getTime(),
    )
    .slice(0, INSIGHT_GAPS_SHOWN);
}

/** The starts of the buckets from `from` to `to` (days, or weeks starting on Monday, UTC). */
export function bucketStarts(from: Date, to: Date, bucket: 'day' | 'week'): Date[] {
  const first = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  if (bucket === 'week') first.setUTCDate(first.getUTCDate() - ((first.getUTCDay() + 6) % 7));
  const step = bucket === 'week' ? 7 * DAY : DAY;
  const out: Date[] = [];
  for (let t = first.getTime(); t < to.getTime(); t += step) out.push(new Date(t));
  return out;
}

const key = (d: unknown) => new Date(d as string | Date).toISOString().slice(0, 10);

/** Fans who opened the chat in each bucket, and how many of them asked, met the paywall, subscribed. */
export async function funnelRows(
  db: Db,
  creatorId: string,
  from: Date,
  to: Date,
  bucket: 'day' | 'week',
): Promise<FunnelRow[]> {
  const unit = sql.lit(bucket);
  const fans = await db
    .selectFrom('fans')
    .select([
      sql<Date>`date_trunc(${unit}, created_at at time zone 'UTC') at time zone 'UTC'`.as('start'),
      sql<number>`count(*)`.as('opened'),
      sql<number>`count(*) filter (where last_fan_message_at is not null)`.as('asked'),
      sql<number>`count(*) filter (where paywall_met_at is not null)`.as('met'),
      sql<number>`count(*) filter (where subscribed_at is not null)`.as('subscribed'),
    ])
    .where('creator_id', '=', creatorId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy(sql`1`)
    .execute();
  const earnings = await db
    .selectFrom('fan_subscription_payments as p')
    .innerJoin('fan_subscriptions as s', 's.provider_subscription_id', 'p.provider_subscription_id')
    .select([
      sql<Date>`date_trunc(${unit}, p.paid_at at time zone 'UTC') at time zone 'UTC'`.as('start'),
      sql<number>`sum(p.amount_cents)`.as('cents'),
    ])
    .where('s.creator_id', '=', creatorId)
    .where('p.reversed', 'is', null)
    .where('p.paid_at', '>=', from)
    .where('p.paid_at', '<', to)
    .groupBy(sql`1`)
    .execute();
  return bucketStarts(from, to, bucket).map((start) => {
    const f = fans.find((r) => key(r.start) === key(start));
    const e = earnings.find((r) => key(r.start) === key(start));
    return {
      start,
      opened: num(f?.opened),
      asked: num(f?.asked),
      metPaywall: num(f?.met),
      subscribed: num(f?.subscribed),
      earningsCents: num(e?.cents),
    };
  });
}

/** Answer quality in each bucket: questions, the AI's share, hand-overs, ratings, time to the first answer. */
export async function qualityRows(
  db: Db,
  creatorId: string,
  from: Date,
  to: Date,
  bucket: 'day' | 'week',
): Promise<QualityRow[]> {
  const unit = sql.lit(bucket);
  const rows = await db
    .selectFrom('messages as q')
    .leftJoin('messages as a', (j) => j.onRef('a.reply_to', '=', 'q.id').on('a.sender', '=', AI_SENDER))
    .select([
      sql<Date>`date_trunc(${unit}, q.created_at at time zone 'UTC') at time zone 'UTC'`.as('start'),
      sql<number>`count(*)`.as('questions'),
      sql<number>`count(*) filter (where a.id is not null and q.ai_handed_over_at is null)`.as('answered'),
      sql<number>`count(*) filter (where a.fan_rating = 'up')`.as('up'),
      sql<number>`count(*) filter (where a.fan_rating = 'down')`.as('down'),
      sql<
        number | null
      >`percentile_cont(0.5) within group (order by extract(epoch from (q.answered_at - q.created_at)))`.as(
        'median',
      ),
    ])
    .where('q.creator_id', '=', creatorId)
    .where('q.sender', '=', 'fan')
    .where('q.created_at', '>=', from)
    .where('q.created_at', '<', to)
    .groupBy(sql`1`)
    .execute();
  return bucketStarts(from, to, bucket).map((start) => {
    const r = rows.find((x) => key(x.start) === key(start));
    const questions = num(r?.questions);
    const answeredByAi = num(r?.answered);
    return {
      start,
      questions,
      answeredByAi,
      handedOver: questions - answeredByAi,
      ratingsUp: num(r?.up),
      ratingsDown: num(r?.down),
      medianFirstAnswerSeconds:
        r?.median === null || r?.median === undefined ? null : Math.round(Number(r.median)),
    };
  });
}

/** Everything Insights shows for a period ending `now`. */
export async function insightsReport(
  db: Db,
  creatorId: string,
  period: InsightPeriod,
  now = new Date(),
): Promise<InsightsReport> {
  const to = now;
  const from = new Date(to.getTime() - period * DAY);
  const bucket = period === 7 ? 'day' : 'week';
  const [topics, gaps, funnel, quality] = await Promise.all([
    topicRows(db, creatorId, from, to),
    gapRows(db, creatorId, from, to),
    funnelRows(db, creatorId, from, to, bucket),
    qualityRows(db, creatorId, from, to, bucket),
  ]);
  return { period, from, to, bucket, topics, gaps, funnel, quality };
}

/**
 * What the open gaps are now, in a word: their count and the newest (changes when one is asked,
 * answered or set aside). Read through the open-gaps index.
 */
export async function openGapsVersion(db: Db, creatorId: string): Promise<string> {
  const row = await db
    .selectFrom('messages')
    .select([
      (eb) => eb.fn.countAll<string | number>().as('n'),
      (eb) => eb.fn.max('knowledge_gap_at').as('newest'),
    ])
    .where('creator_id', '=', creatorId)
    .where('knowledge_gap_at', 'is not', null)
    .where('gap_closed_at', 'is', null)
    .executeTakeFirst();
  const newest = row?.newest ? new Date(row.newest as string | Date).toISOString() : '';
  return `${Number(row?.n ?? 0)}|${newest}`;
}
