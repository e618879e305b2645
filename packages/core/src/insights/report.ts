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

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const dayStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/**
 * Recounts the creator's days marked since the last refresh (a question asked or deleted, an answer,
 * a hand-over, a rating, a question grouped: the triggers of 2026-11-30T08-00_insight_days), so the
 * daily counts equal the raw rows. Marks committed while this runs stay for the next refresh.
 * Returns how many days were recounted.
 */
export async function refreshInsightDays(db: Db, creatorId: string): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const marked = await tx
      .deleteFrom('insight_dirty_days')
      .where('creator_id', '=', creatorId)
      .returning(sql<string>`day::text`.as('day'))
      .execute();
    const days = [...new Set(marked.map((m) => m.day))];
    if (days.length === 0) return 0;
    await sql`select insight_refresh_days(${creatorId}::uuid, ${days}::date[])`.execute(tx);
    return days.length;
  });
}

/**
 * The topics of the period (its days `from`..`to`, UTC): questions, trend, AI share, ratings and
 * examples, most asked first. Sums the daily counts (at most 2 x 90 rows per topic).
 */
export async function topicRows(db: Db, creatorId: string, from: Date, to: Date): Promise<TopicRow[]> {
  const fromDay = isoDay(dayStart(from));
  const days = Math.max(1, Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / DAY) + 1);
  const previousDay = isoDay(new Date(dayStart(from).getTime() - days * DAY));
  const inPeriod = sql`d.day >= ${fromDay}::date`;
  const rows = await db
    .selectFrom('insight_topic_days as d')
    .innerJoin('question_topics as t', 't.id', 'd.topic_id')
    .select([
      't.id',
      't.label',
      't.named_by',
      sql<number>`coalesce(sum(d.questions) filter (where ${inPeriod}), 0)`.as('questions'),
      sql<number>`coalesce(sum(d.questions) filter (where not ${inPeriod}), 0)`.as('previous'),
      sql<number>`coalesce(sum(d.answered) filter (where ${inPeriod}), 0)`.as('answered'),
      sql<number>`coalesce(sum(d.ratings_up) filter (where ${inPeriod}), 0)`.as('up'),
      sql<number>`coalesce(sum(d.ratings_down) filter (where ${inPeriod}), 0)`.as('down'),
    ])
    .where('d.creator_id', '=', creatorId)
    .where(sql<boolean>`d.day >= ${previousDay}::date`)
    .where(sql<boolean>`d.day <= ${isoDay(to)}::date`)
    .groupBy(['t.id', 't.label', 't.named_by'])
    .having(sql`coalesce(sum(d.questions) filter (where ${inPeriod}), 0)`, '>', 0)
    .orderBy(sql`coalesce(sum(d.questions) filter (where ${inPeriod}), 0)`, 'desc')
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
          .where('m.asked_at', '>=', dayStart(from))
          .where('m.asked_at', '<', new Date(dayStart(to).getTime() + DAY))
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
          .selectFrom('messages as q')
          .leftJoin('question_topic_members as m', 'm.message_id', 'q.id')
          .leftJoin('question_topics as t', 't.id', 'm.topic_id')
          .select(['q.id as message_id', 'q.fan_id', 't.id', 't.label'])
          .where('q.creator_id', '=', creatorId)
          .where('q.id', 'in', ids)
          .execute();
  const topicOf = new Map(
    topics
      .filter((t) => t.id !== null)
      .map((t) => [String(t.message_id), { id: String(t.id), label: t.label! }]),
  );
  // A fan who asked in two merged gaps is one fan.
  const fanOf = new Map(topics.map((t) => [String(t.message_id), t.fan_id ?? `anonymous:${t.message_id}`]));
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
        fans: new Set(members.flatMap((g) => g.questionIds.map((id) => fanOf.get(id) ?? `anonymous:${id}`)))
          .size,
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
  const start = sql`(date_trunc(${unit}, d.day::timestamp))::date::text`;
  const range = sql`d.creator_id = ${creatorId}::uuid and d.day >= ${isoDay(dayStart(from))}::date
    and d.day <= ${isoDay(to)}::date`;
  const { rows } = await sql<{
    start: string;
    questions: number;
    answered: number;
    up: number;
    down: number;
  }>`
    select ${start} as start, sum(d.questions) as questions, sum(d.answered) as answered,
      sum(d.ratings_up) as up, sum(d.ratings_down) as down
    from insight_days d where ${range} group by 1`.execute(db);
  const { rows: medians } = await sql<{ start: string; median: number | null }>`
    select ${start} as start, percentile_cont(0.5) within group (order by s.seconds) as median
    from insight_days d cross join unnest(d.answer_seconds) as s(seconds) where ${range} group by 1`.execute(
    db,
  );
  return bucketStarts(from, to, bucket).map((start) => {
    const r = rows.find((x) => x.start === key(start));
    const median = medians.find((x) => x.start === key(start))?.median;
    const questions = num(r?.questions);
    const answeredByAi = num(r?.answered);
    return {
      start,
      questions,
      answeredByAi,
      handedOver: questions - answeredByAi,
      ratingsUp: num(r?.up),
      ratingsDown: num(r?.down),
      medianFirstAnswerSeconds: median === null || median === undefined ? null : Math.round(Number(median)),
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
  // The period's days: today (UTC) and the period - 1 before, summed from the daily counts.
  const to = now;
  const from = new Date(dayStart(now).getTime() - (period - 1) * DAY);
  const bucket = period === 7 ? 'day' : 'week';
  await refreshInsightDays(db, creatorId);
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
