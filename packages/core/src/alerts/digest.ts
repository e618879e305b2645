import { AI_SENDER } from '@fanpilot/contracts';
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { queueMail } from '../mail-outbox.ts';
import { localTime } from './local-time.ts';
import {
  type AlertCreator,
  type AlertMailOptions,
  greetingName,
  unsubscribeHeaders,
  unsubscribeLink,
} from './send-alerts.ts';
import { withAlertSettingsHeld } from './settings.ts';

// The digest (record 0062): once a day (or on Monday, weekly) at the creator's morning in their
// time zone, what happened since the last one; nothing is sent when nothing happened. The
// creator's settings row, locked with SKIP LOCKED, and `last_digest_on` make it once a day however
// many processes look.

export interface DigestContent {
  from: Date;
  to: Date;
  newFans: number;
  questions: number;
  answeredByAi: number;
  handedOver: number;
  waitingNow: number;
  topTopics: { topic: string; questions: number }[];
  gaps: { count: number; examples: string[] };
  ratings: { up: number; down: number };
  /** Earnings from fans' subscriptions in the period, in cents per currency (none: no subscriptions). */
  earnings: { currency: string; cents: number }[];
}

const STOP = new Set(
  `about above after again also because been before being below between both could does doing down during each
  from further have having here hers herself himself into itself just more most myself once only other ours
  ourselves over same should some such than that their theirs them themselves then there these they this those
  through under until very were what when where which while whom will with would your yours yourself yourselves
  please thanks thank know want like make need tell really think still much many good best well does dont cant`
    .split(/\s+/)
    .filter(Boolean),
);

/** The words fans asked about most (a word counts once per question), most asked first. */
export function topTopics(questions: string[], limit = 5): { topic: string; questions: number }[] {
  const counts = new Map<string, number>();
  for (const q of questions) {
    const words = new Set(
      q
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .match(/[a-z][a-z'-]{3,}/g)
        ?.map((w) => w.replace(/'s$/, '').replace(/s$/, ''))
        .filter((w) => w.length >= 4 && !STOP.has(w)) ?? [],
    );
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([topic, n]) => ({ topic, questions: n }));
}

/**
 * The period's questions by Insights' topics (the same groups as the dashboard's), most asked
 * first; null when none of them was grouped yet.
 */
export async function groupedTopics(
  db: Db,
  creatorId: string,
  from: Date,
  to: Date,
  limit = 5,
): Promise<{ topic: string; questions: number }[] | null> {
  const rows = await db
    .selectFrom('question_topic_members as m')
    .innerJoin('question_topics as t', 't.id', 'm.topic_id')
    .select(['t.label', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('m.creator_id', '=', creatorId)
    .where('m.asked_at', '>=', from)
    .where('m.asked_at', '<', to)
    .groupBy(['t.id', 't.label'])
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('t.label')
    .limit(limit)
    .execute();
  return rows.length === 0 ? null : rows.map((r) => ({ topic: r.label, questions: Number(r.n) }));
}

/** What happened for the creator from `from` to `to`. */
export async function digestContent(db: Db, creatorId: string, from: Date, to: Date): Promise<DigestContent> {
  const count = (n: unknown) => Number(n ?? 0);
  const fans = await db
    .selectFrom('fans')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('creator_id', '=', creatorId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirst();
  const asked = await db
    .selectFrom('messages as m')
    .select([
      'm.body',
      'm.ai_handed_over_at',
      sql<boolean>`exists (select 1 from messages r where r.reply_to = m.id and r.sender = ${AI_SENDER})`.as(
        'ai_replied',
      ),
    ])
    .where('m.creator_id', '=', creatorId)
    .where('m.sender', '=', 'fan')
    .where('m.created_at', '>=', from)
    .where('m.created_at', '<', to)
    .execute();
  const answeredByAi = asked.filter((q) => q.ai_replied && q.ai_handed_over_at === null).length;
  const waiting = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('creator_id', '=', creatorId)
    .where('sender', '=', 'fan')
    .where('status', '=', 'pending')
    .executeTakeFirst();
  const gaps = await db
    .selectFrom('messages')
    .select('body')
    .where('creator_id', '=', creatorId)
    .where('knowledge_gap_at', '>=', from)
    .where('knowledge_gap_at', '<', to)
    .where('gap_closed_at', 'is', null)
    .orderBy('knowledge_gap_at', 'desc')
    .execute();
  const ratings = await db
    .selectFrom('messages')
    .select(['fan_rating', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('creator_id', '=', creatorId)
    .where('fan_rated_at', '>=', from)
    .where('fan_rated_at', '<', to)
    .where('fan_rating', 'is not', null)
    .groupBy('fan_rating')
    .execute();
  return {
    from,
    to,
    newFans: count(fans?.n),
    questions: asked.length,
    answeredByAi,
    handedOver: asked.length - answeredByAi,
    waitingNow: count(waiting?.n),
    // Insights' groups (record 0081) when the period's questions were grouped, else the words.
    topTopics: (await groupedTopics(db, creatorId, from, to)) ?? topTopics(asked.map((q) => q.body)),
    gaps: {
      count: gaps.length,
      examples: gaps.slice(0, 3).map((g) => g.body.replace(/\s+/g, ' ').slice(0, 140)),
    },
    ratings: {
      up: count(ratings.find((r) => r.fan_rating === 'up')?.n),
      down: count(ratings.find((r) => r.fan_rating === 'down')?.n),
    },
    earnings: await digestEarnings(db, creatorId, from, to),
  };
}

/**
 * Earnings in the period: fans' subscription invoices paid (not refunded or disputed), in US
 * dollars (fans' plans are priced in USD, record 0043); none when nothing was paid.
 */
async function digestEarnings(
  db: Db,
  creatorId: string,
  from: Date,
  to: Date,
): Promise<DigestContent['earnings']> {
  const row = await db
    .selectFrom('fan_subscription_payments as p')
    .innerJoin('fan_subscriptions as s', 's.provider_subscription_id', 'p.provider_subscription_id')
    .select(sql<string>`coalesce(sum(p.amount_cents) filter (where p.reversed is null), 0)`.as('gross'))
    .where('s.creator_id', '=', creatorId)
    .where('p.paid_at', '>=', from)
    .where('p.paid_at', '<', to)
    .executeTakeFirst();
  const cents = Number(row?.gross ?? 0);
  return cents > 0 ? [{ currency: 'usd', cents }] : [];
}

/** Whether the digest has anything to say. */
export const digestHasNews = (d: DigestContent) =>
  d.newFans + d.questions + d.gaps.count + d.ratings.up + d.ratings.down > 0 ||
  d.earnings.some((e) => e.cents > 0);

const money = (e: { currency: string; cents: number }) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: e.currency.toUpperCase() }).format(
    e.cents / 100,
  );

/** The digest as an email. */
export function digestMail(
  d: DigestContent,
  creator: AlertCreator,
  period: 'daily' | 'weekly',
  origin: string,
) {
  const { username } = creator;
  const when = period === 'daily' ? 'yesterday' : 'last week';
  const lines = [
    `Hi ${greetingName(creator)}, here is ${when} on Fanpilot.`,
    '',
    `New fans: ${d.newFans}`,
    `Questions: ${d.questions}`,
    `Answered by your AI: ${d.answeredByAi}`,
    `Handed over to you: ${d.handedOver}`,
    `Waiting for you now: ${d.waitingNow}`,
  ];
  if (d.topTopics.length > 0) {
    lines.push('', 'Top topics fans asked about:');
    for (const t of d.topTopics)
      lines.push(`- ${t.topic} (${t.questions} ${t.questions === 1 ? 'question' : 'questions'})`);
  }
  if (d.gaps.count > 0) {
    lines.push('', `Knowledge gaps (questions your content did not cover): ${d.gaps.count}`);
    for (const g of d.gaps.examples) lines.push(`- "${g}"`);
  }
  lines.push('', `Ratings: ${d.ratings.up} helpful, ${d.ratings.down} not helpful`);
  if (d.earnings.length > 0) lines.push(`Earnings: ${d.earnings.map(money).join(', ')}`);
  lines.push('', `Open your dashboard: ${origin}/admin/${encodeURIComponent(username)}`);
  lines.push(
    `See what your fans want (Insights): ${origin}/admin/${encodeURIComponent(username)}?tab=insights`,
  );
  const subject =
    period === 'daily'
      ? `Your day on Fanpilot: ${d.questions} ${d.questions === 1 ? 'question' : 'questions'}, ${d.newFans} new ${d.newFans === 1 ? 'fan' : 'fans'}`
      : `Your week on Fanpilot: ${d.questions} ${d.questions === 1 ? 'question' : 'questions'}, ${d.newFans} new ${d.newFans === 1 ? 'fan' : 'fans'}`;
  return { subject, text: lines.join('\n') };
}

/**
 * Sends the digests due now: a creator whose local hour has reached their digest hour, not yet
 * considered today (weekly: on Monday). Returns how many digests were queued (skipped ones, with
 * nothing to say, are not counted).
 */
export async function sendDueDigests(db: Db, options: AlertMailOptions & { now?: Date }): Promise<number> {
  const now = options.now ?? new Date();
  const creators = await db
    .selectFrom('creators as c')
    .leftJoin('creator_alert_settings as s', 's.creator_id', 'c.id')
    .select(['c.id', 's.time_zone', 's.digest', 's.digest_hour', 's.last_digest_on'])
    .where((eb) => eb.or([eb('s.digest', 'is', null), eb('s.digest', '<>', 'off')]))
    .execute();
  let sent = 0;
  for (const c of creators) {
    const local = localTime(now, c.time_zone ?? 'UTC');
    if (!digestDue(local, c.digest ?? 'daily', c.digest_hour ?? 8, c.last_digest_on)) continue;
    if (await sendDigest(db, c.id, now, options)) sent += 1;
  }
  return sent;
}

function digestDue(
  local: { date: string; minutes: number; weekday: number },
  digest: 'daily' | 'weekly' | 'off',
  hour: number,
  last: string | null,
): boolean {
  if (digest === 'off' || local.minutes < hour * 60 || last === local.date) return false;
  return digest === 'daily' || local.weekday === 1;
}

async function sendDigest(db: Db, creatorId: string, now: Date, options: AlertMailOptions): Promise<boolean> {
  return withAlertSettingsHeld(db, creatorId, async (trx, s) => {
    const local = localTime(now, s.timeZone);
    if (!digestDue(local, s.digest, s.digestHour, s.lastDigestOn)) return false;
    await trx
      .updateTable('creator_alert_settings')
      .set({ last_digest_on: local.date })
      .where('creator_id', '=', creatorId)
      .execute();
    const days = s.digest === 'weekly' ? 7 : 1;
    const from = new Date(now.getTime() - days * 86_400_000);
    const content = await digestContent(trx, creatorId, from, now);
    if (!digestHasNews(content) || s.bouncedAt) return false;
    const creator = await trx
      .selectFrom('creators')
      .select(['email', 'username', 'name'])
      .where('id', '=', creatorId)
      .executeTakeFirstOrThrow();
    const mail = digestMail(content, creator, s.digest === 'weekly' ? 'weekly' : 'daily', options.origin);
    await queueMail(trx, {
      purpose: 'creator_digest',
      to: creator.email,
      subject: mail.subject,
      text: `${mail.text}\n\nStop the digest (one click, no sign-in): ${unsubscribeLink(options, creatorId, 'digest')}\n`,
      headers: unsubscribeHeaders(options, creatorId, 'digest'),
    });
    return true;
  });
}
