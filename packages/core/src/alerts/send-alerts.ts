import { type AlertKind, JOBS } from '@fanpilot/contracts';
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { writeJob } from '../job-outbox.ts';
import { queueMail } from '../mail-outbox.ts';
import { inQuietHours, localTime } from './local-time.ts';
import { loadAlertSettings, withAlertSettingsHeld } from './settings.ts';
import { unsubscribeToken } from './unsubscribe.ts';

// Alerts leave in groups (record 0061): a creator's first unsent alert opens a collecting window;
// when it closes, everything noted meanwhile goes out as ONE email and ONE push, unless the
// creator's quiet hours hold it (then it goes when they end). The creator's settings row is locked
// with SKIP LOCKED while a group is made, and the alerts are marked sent in the same transaction
// that queues the email and the push, so with any number of processes draining, each alert is sent
// once.

export interface AlertMailOptions {
  /** The public origin the links in an email point to. */
  origin: string;
  /** The secret unsubscribe links are signed with. */
  secret: string;
}

export interface SendAlertsOptions extends AlertMailOptions {
  /** How long a creator's first alert waits for others to join it (one email for a burst). */
  windowMs: number;
  now?: Date;
}

interface AlertRow {
  id: string;
  kind: AlertKind;
  fan_id: string | null;
  detail: string;
  /** Why a question waits for the creator (null: the AI handed it over). */
  reason: string | null;
  fan_name: string | null;
  /** The fan's key: what the dashboard names a conversation by (?fan=). */
  fan_key: string | null;
  created_at: Date;
  /** A subscriber alert's subscription: the email paid with, and the plan's price. */
  sub_email?: string | null;
  sub_amount_cents?: number | null;
  sub_interval?: string | null;
}

/** Who the email greets: the creator's display name (their username only when it has none). */
export interface AlertCreator {
  username: string;
  name: string | null;
}

/** Creators whose collecting window has closed, then one group per creator. Returns groups sent. */
export async function sendDueAlerts(db: Db, options: SendAlertsOptions): Promise<number> {
  const now = options.now ?? new Date();
  const due = await db
    .selectFrom('creator_alerts')
    .select('creator_id')
    .where('sent_at', 'is', null)
    .groupBy('creator_id')
    .having((eb) => eb.fn.min('created_at'), '<=', new Date(now.getTime() - options.windowMs))
    .limit(100)
    .execute();
  let sent = 0;
  for (const { creator_id } of due) {
    if (await sendCreatorAlerts(db, creator_id, { ...options, now })) sent += 1;
  }
  return sent;
}

/** Makes and queues one creator's group; false when held (quiet hours), taken elsewhere, or empty. */
async function sendCreatorAlerts(
  db: Db,
  creatorId: string,
  options: SendAlertsOptions & { now: Date },
): Promise<boolean> {
  // Another process making this creator's group holds the settings: it sends them.
  return withAlertSettingsHeld(db, creatorId, async (trx, settings) => {
    const local = localTime(options.now, settings.timeZone);
    if (inQuietHours(local.minutes, settings.quietStart, settings.quietEnd)) return false;
    const alerts = (await trx
      .selectFrom('creator_alerts as a')
      .leftJoin('fans as f', 'f.id', 'a.fan_id')
      // A subscriber alert's ref is its subscription: who paid, and for which plan.
      .leftJoin('fan_subscriptions as s', (join) =>
        join.on(sql<boolean>`s.id::text = a.ref and a.kind in ('new_subscriber', 'subscription_cancelled')`),
      )
      .select([
        'a.id',
        'a.kind',
        'a.fan_id',
        'a.detail',
        'a.reason',
        'f.name as fan_name',
        'f.fan_key',
        'a.created_at',
        's.email as sub_email',
        's.amount_cents as sub_amount_cents',
        's.interval as sub_interval',
      ])
      .where('a.creator_id', '=', creatorId)
      .where('a.sent_at', 'is', null)
      .orderBy('a.id')
      .execute()) as AlertRow[];
    if (alerts.length === 0) return false;
    const oldest = Math.min(...alerts.map((a) => new Date(a.created_at).getTime()));
    if (oldest > options.now.getTime() - options.windowMs) return false;
    const creator = await trx
      .selectFrom('creators')
      .select(['email', 'username', 'name'])
      .where('id', '=', creatorId)
      .executeTakeFirstOrThrow();
    const byEmail = alerts.filter((a) => settings.channels[a.kind].email);
    const byPush = alerts.filter((a) => settings.channels[a.kind].push);
    const group = describeGroup(alerts, creator, options.origin);
    const devices = await trx
      .selectFrom('creator_push_subscriptions')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('creator_id', '=', creatorId)
      .executeTakeFirst();
    const push = byPush.length > 0 && Number(devices?.n ?? 0) > 0;
    const email = byEmail.length > 0 && settings.bouncedAt === null;
    const pushed = describeGroup(byPush.length > 0 ? byPush : alerts, creator, options.origin);
    const batch = await trx
      .insertInto('creator_alert_batches')
      .values({
        creator_id: creatorId,
        title: pushed.subject,
        body: pushed.pushBody,
        url: pushed.path,
        alert_count: alerts.length,
        emailed: email,
        pushed: push,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('creator_alerts')
      .set({ sent_at: options.now, batch_id: batch.id })
      .where(
        'id',
        'in',
        alerts.map((a) => a.id),
      )
      .execute();
    if (email) {
      const mailed = describeGroup(byEmail, creator, options.origin);
      await queueMail(trx, {
        purpose: 'creator_alert',
        to: creator.email,
        subject: mailed.subject,
        text: `${mailed.text}\nStop alert emails (one click, no sign-in): ${unsubscribeLink(options, creatorId, 'alerts')}\n`,
        headers: unsubscribeHeaders(options, creatorId, 'alerts'),
      });
    }
    if (push) {
      await writeJob(trx, JOBS.push, { kind: 'alert', id: batch.id });
    }
    return group.lines.length > 0;
  });
}

/** The unsubscribe link of an alert or digest email. */
export function unsubscribeLink(options: AlertMailOptions, creatorId: string, scope: 'alerts' | 'digest') {
  return `${options.origin}/api/notifications/unsubscribe?token=${unsubscribeToken(options.secret, creatorId, scope)}`;
}

/** RFC 8058's headers: a mail client's "Unsubscribe" button POSTs to the signed link. */
export function unsubscribeHeaders(
  options: AlertMailOptions,
  creatorId: string,
  scope: 'alerts' | 'digest',
): Record<string, string> {
  return {
    'List-Unsubscribe': `<${unsubscribeLink(options, creatorId, scope)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

const quote = (text: string, max = 140) => {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

/**
 * Why a question waits for the creator, as the email and push say it: the reason noted with it
 * (record 0073); none (or one unknown here) is the AI's hand-over.
 */
export function questionWaitsBecause(reason: string | null): string {
  switch (reason) {
    case 'no_chatbot':
      return 'You have no chatbot, so this question waits for you.';
    case 'no_credits':
      return 'Your credits are used up, so your AI did not answer; this question waits for you.';
    case 'over_budget':
      return "Your AI reached today's answer budget, so this question waits for you.";
    case 'creator_online':
      return 'You are Online, so this question waits for your answer.';
    default:
      return 'Your AI handed this question to you.';
  }
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A subscriber alert's fan: their name with the email they paid with, or whichever is known. */
function subscriberOf(a: AlertRow): string {
  const name = a.fan_name?.trim() || null;
  const email = a.sub_email?.trim() || null;
  if (name && email && name !== email) return `${name} (${email})`;
  return name ?? email ?? (a.detail || 'A fan');
}

/** The plan a subscriber alert is about, e.g. "$9.00 / month"; '' when unknown. */
function planOf(a: AlertRow): string {
  const cents = Number(a.sub_amount_cents ?? 0);
  if (!cents) return '';
  return `${usd.format(cents / 100)} / ${a.sub_interval === 'year' ? 'year' : 'month'}`;
}

/** One alert as a line of the email. */
function lineOf(a: AlertRow): string {
  const fan = a.fan_name ?? 'A fan';
  switch (a.kind) {
    case 'question':
      return `${fan} asked: "${quote(a.detail)}" ${questionWaitsBecause(a.reason)}`;
    case 'waiting':
      return `${fan} is still waiting for an answer: "${quote(a.detail)}"`;
    case 'budget_reached':
      return "Your AI reached today's answer budget. New questions wait for you until it starts afresh at midnight UTC.";
    case 'credits_low':
      return `Your credits are running low: ${a.detail} left.`;
    case 'credits_out':
      return 'Your credits are used up. Your AI has stopped answering; questions wait for you.';
    case 'source_failed':
      return `A knowledge source failed: ${quote(a.detail)}.`;
    case 'new_subscriber': {
      const plan = planOf(a);
      return plan ? `${subscriberOf(a)} subscribed: ${plan}.` : `${subscriberOf(a)} subscribed.`;
    }
    case 'subscription_cancelled': {
      const plan = planOf(a);
      return `${subscriberOf(a)} cancelled their subscription${plan ? ` (${plan})` : ''}.`;
    }
  }
}

/** The group's subject, text, and where its link goes (the one conversation, else the dashboard). */
export function describeGroup(alerts: AlertRow[], creator: AlertCreator, origin: string) {
  const { username } = creator;
  const questions = alerts.filter((a) => a.kind === 'question' || a.kind === 'waiting');
  const fans = new Set(questions.map((a) => a.fan_id ?? a.id));
  const only = alerts.length === 1 ? alerts[0] : undefined;
  let subject: string;
  if (questions.length > 0) {
    subject =
      fans.size === 1
        ? `${questions[0]?.fan_name ?? 'A fan'} is waiting for your answer`
        : `${fans.size} fans are waiting for your answer`;
    if (alerts.length > questions.length) subject += ` (and ${alerts.length - questions.length} more alerts)`;
  } else if (only) {
    subject = lineOf(only).split('. ')[0]!.replace(/[.:]$/, '');
  } else {
    subject = `${alerts.length} things need your attention`;
  }
  const oneFan = fans.size === 1 ? questions[0]?.fan_key : null;
  const base = `/admin/${encodeURIComponent(username)}`;
  const path = oneFan
    ? `${base}?fan=${encodeURIComponent(oneFan)}`
    : questions.length > 0
      ? `${base}?tab=chats`
      : base;
  const lines = alerts.map((a) => {
    const link =
      a.fan_key && (a.kind === 'question' || a.kind === 'waiting')
        ? `\n   ${origin}${base}?fan=${encodeURIComponent(a.fan_key)}`
        : '';
    return `- ${lineOf(a)}${link}`;
  });
  const text = [
    `Hi ${greetingName(creator)},`,
    '',
    ...lines,
    '',
    `Open your dashboard: ${origin}${path}`,
    '',
    'You get this because alerts by email are on in your Profile Settings > Notifications.',
  ].join('\n');
  const pushBody = quote(alerts.map(lineOf).join(' '), 200);
  return { subject, text, path, pushBody, lines };
}

/** The creator's display name, for "Hi …": their username only when they have no name. */
export function greetingName(creator: AlertCreator): string {
  return creator.name?.trim() || creator.username;
}

/** The group a push job names, as its notification tells it. */
export async function alertBatch(db: Db, batchId: string) {
  return db
    .selectFrom('creator_alert_batches as b')
    .innerJoin('creators as c', 'c.id', 'b.creator_id')
    .select(['b.id', 'b.creator_id', 'b.title', 'b.body', 'b.url', 'c.username'])
    .where('b.id', '=', batchId)
    .executeTakeFirst();
}

/** Alerts noted and not yet sent (the runtime's idle signal and tests). */
export async function unsentAlerts(db: Db, creatorId?: string): Promise<number> {
  let query = db
    .selectFrom('creator_alerts')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('sent_at', 'is', null);
  if (creatorId) query = query.where('creator_id', '=', creatorId);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

export { loadAlertSettings };
