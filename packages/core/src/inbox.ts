import type { ConversationListFilter } from '@fanpilot/contracts';
import { AI_SENDER, UUID_PATTERN } from '@fanpilot/contracts';
import { sql } from 'kysely';
import { fanNameOf } from './conversations/fan-name.ts';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
import { type MessageView, messagesRepository } from './messages.ts';

/**
 * The creator's inbox at any size: counts and keyset pages read from the counters a trigger keeps
 * on each fan's row (migration 2026-11-23T10-00_inbox) and from indexes, never from a window of
 * the latest messages.
 */

/** A position in a keyset page: a timestamp at full (microsecond) precision and a row id. */
interface Position {
  at: string;
  id: string;
}

const MESSAGE_ID = /^[1-9][0-9]{0,18}$/;
const MICRO_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** A timestamptz as UTC ISO text with microseconds: it goes back into a query exactly. */
const microIso = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const encodeCursor = (p: Position) => Buffer.from(`${p.at}|${p.id}`, 'utf8').toString('base64url');

function decodeCursor(cursor: string, id: RegExp): Position {
  const [at, rowId, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !at || !rowId || !MICRO_ISO.test(at) || !id.test(rowId)) {
    throw new DomainError('invalid', 'bad_cursor', 'This page link is not valid. Please reload the list.');
  }
  return { at, id: rowId };
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** When today began in `timeZone` (an IANA name the caller has checked), as an instant. */
export function startOfToday(timeZone: string, now: Date = new Date()): Date {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    if (formats.size < 1_000) formats.set(timeZone, format);
  }
  const formatter = format;
  const parts = (instant: Date) => {
    const values = Object.fromEntries(
      formatter.formatToParts(instant).map((p) => [p.type, Number(p.value)]),
    ) as Record<string, number>;
    return values;
  };
  const wall = parts(now);
  const midnightAsUtc = Date.UTC(wall.year!, wall.month! - 1, wall.day!);
  // The zone's offset at an instant: its wall clock read as UTC, minus the instant.
  const offsetAt = (t: number) => {
    const p = parts(new Date(t));
    return (
      Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(t / 1000) * 1000
    );
  };
  let start = midnightAsUtc - offsetAt(midnightAsUtc);
  // Around a change of offset, the offset at the first guess may not be midnight's own.
  start = midnightAsUtc - offsetAt(start);
  return new Date(start);
}

export interface InboxCounts {
  fans: number;
  activeFansToday: number;
  pendingQuestions: number;
  waitingFans: number;
  todayResponses: number;
  todayAiResponses: number;
}

export interface ConversationRow {
  fanKey: string;
  name: string | null;
  messageCount: number;
  pendingCount: number;
  lastActivityAt: Date;
  createdAt: Date;
  /** The site whose widget the conversation began on; null for the fan app. */
  widgetSite: string | null;
  latestFanMessage: MessageView | null;
  latestReply: MessageView | null;
  newestPending: MessageView | null;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function inboxRepository(db: Db) {
  const messages = messagesRepository(db);
  return {
    async counts(creatorId: string, todayStart: Date): Promise<InboxCounts> {
      const [fans, replies] = await Promise.all([
        db
          .selectFrom('fans')
          .select([
            sql<string>`count(*)`.as('fans'),
            sql<string>`count(*) filter (where pending_count > 0)`.as('waiting_fans'),
            sql<string>`coalesce(sum(pending_count), 0)`.as('pending'),
            sql<string>`count(*) filter (where last_fan_message_at >= ${todayStart})`.as('active_today'),
          ])
          .where('creator_id', '=', creatorId)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('messages')
          .select([
            sql<string>`count(*)`.as('replies'),
            sql<string>`count(*) filter (where sender = ${sql.lit(AI_SENDER)})`.as('ai_replies'),
          ])
          .where('creator_id', '=', creatorId)
          .where('sender', '<>', 'fan')
          .where('created_at', '>=', todayStart)
          .executeTakeFirstOrThrow(),
      ]);
      return {
        fans: Number(fans.fans),
        activeFansToday: Number(fans.active_today),
        pendingQuestions: Number(fans.pending),
        waitingFans: Number(fans.waiting_fans),
        todayResponses: Number(replies.replies),
        todayAiResponses: Number(replies.ai_replies),
      };
    },

    /** One page of the creator's conversations, latest activity first. */
    async conversations(
      creatorId: string,
      options: { filter: ConversationListFilter; search: string; cursor?: string; limit: number },
    ): Promise<{ rows: ConversationRow[]; nextCursor: string | null }> {
      let query = db
        .selectFrom('fans as f')
        .select([
          'f.id',
          'f.fan_key',
          'f.name',
          'f.message_count',
          'f.pending_count',
          'f.last_activity_at',
          'f.created_at',
          'f.widget_site',
          microIso('f.last_activity_at').as('activity_key'),
        ])
        .where('f.creator_id', '=', creatorId);
      if (options.filter === 'waiting') query = query.where('f.pending_count', '>', 0);
      if (options.filter === 'answered') query = query.where('f.pending_count', '=', 0);
      const search = options.search.trim();
      if (search) query = query.where(sql<boolean>`f.name ilike ${`%${escapeLike(search)}%`} escape '\\'`);
      if (options.cursor) {
        const after = decodeCursor(options.cursor, UUID_PATTERN);
        query = query.where(
          sql<boolean>`(f.last_activity_at, f.id) < (${after.at}::timestamptz, ${after.id}::uuid)`,
        );
      }
      const fans = await query
        .orderBy('f.last_activity_at', 'desc')
        .orderBy('f.id', 'desc')
        .limit(options.limit + 1)
        .execute();
      const page = fans.slice(0, options.limit);
      const last = page.at(-1);
      const nextCursor =
        fans.length > options.limit && last ? encodeCursor({ at: last.activity_key, id: last.id }) : null;
      if (page.length === 0) return { rows: [], nextCursor };

      // Each fan's newest fan message, newest reply and newest waiting question, read from the
      // newest end of its conversation (index messages_fan_page_idx).
      const latest = await db
        .selectFrom('fans as f')
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('messages as m')
              .select('m.id as fan_message_id')
              .whereRef('m.fan_id', '=', 'f.id')
              .where('m.sender', '=', 'fan')
              .orderBy('m.created_at', 'desc')
              .orderBy('m.id', 'desc')
              .limit(1)
              .as('lf'),
          (join) => join.onTrue(),
        )
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('messages as m')
              .select('m.id as reply_id')
              .whereRef('m.fan_id', '=', 'f.id')
              .where('m.sender', '<>', 'fan')
              .orderBy('m.created_at', 'desc')
              .orderBy('m.id', 'desc')
              .limit(1)
              .as('lr'),
          (join) => join.onTrue(),
        )
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('messages as m')
              .select('m.id as pending_id')
              .whereRef('m.fan_id', '=', 'f.id')
              .where(sql<boolean>`f.pending_count > 0`)
              .where('m.sender', '=', 'fan')
              .where('m.status', '=', 'pending')
              .orderBy('m.created_at', 'desc')
              .orderBy('m.id', 'desc')
              .limit(1)
              .as('lp'),
          (join) => join.onTrue(),
        )
        .select(['f.id', 'lf.fan_message_id', 'lr.reply_id', 'lp.pending_id'])
        .where(
          'f.id',
          'in',
          page.map((f) => f.id),
        )
        .execute();
      const ids = latest
        .flatMap((r) => [r.fan_message_id, r.reply_id, r.pending_id])
        .filter((id) => id !== null);
      const views = new Map((await messages.viewsByIds(ids.map(String))).map((v) => [v.id, v]));
      const byFan = new Map(latest.map((r) => [r.id, r]));
      const view = (id: string | null | undefined) => (id == null ? null : (views.get(String(id)) ?? null));
      return {
        rows: page.map((f) => {
          const l = byFan.get(f.id);
          return {
            fanKey: f.fan_key,
            name: fanNameOf(f),
            messageCount: f.message_count,
            pendingCount: f.pending_count,
            lastActivityAt: new Date(f.last_activity_at),
            createdAt: new Date(f.created_at),
            widgetSite: f.widget_site,
            latestFanMessage: view(l?.fan_message_id),
            latestReply: view(l?.reply_id),
            newestPending: view(l?.pending_id),
          };
        }),
        nextCursor,
      };
    },

    /** One page of a fan's conversation: the newest `limit` messages before the cursor, oldest first. */
    async conversationPage(
      fanRowId: string,
      options: { before?: string; limit: number },
    ): Promise<{ messages: MessageView[]; olderCursor: string | null }> {
      let query = db
        .selectFrom('messages as m')
        .select(['m.id', microIso('m.created_at').as('time_key')])
        .where('m.fan_id', '=', fanRowId);
      if (options.before) {
        const before = decodeCursor(options.before, MESSAGE_ID);
        query = query.where(
          sql<boolean>`(m.created_at, m.id) < (${before.at}::timestamptz, ${before.id}::bigint)`,
        );
      }
      const rows = await query
        .orderBy('m.created_at', 'desc')
        .orderBy('m.id', 'desc')
        .limit(options.limit + 1)
        .execute();
      const page = rows.slice(0, options.limit);
      const oldest = page.at(-1);
      const olderCursor =
        rows.length > options.limit && oldest
          ? encodeCursor({ at: oldest.time_key, id: String(oldest.id) })
          : null;
      const views = new Map((await messages.viewsByIds(page.map((r) => String(r.id)))).map((v) => [v.id, v]));
      const ordered = page
        .map((r) => views.get(String(r.id)))
        .filter((v): v is MessageView => v !== undefined)
        .reverse();
      return { messages: ordered, olderCursor };
    },
  };
}
