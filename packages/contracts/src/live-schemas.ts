import { z } from 'zod';
import { LIVE_CHANGE_KINDS } from './live.ts';

/**
 * The live protocol's schemas, and the messages that carry it between processes. Server side
 * only (they load zod): the browsers read events with the guards of `live.ts`, which a test holds
 * to these schemas.
 *
 * Between processes everything travels on one PostgreSQL channel, NOTIFY fp_changes:
 * - a change notice, `scope:id:version:table[:fan id]`, written by the database itself at commit
 *   (the change feed's trigger, migration 2026-11-23T11-00_change_feed): `encodeChangeNotice`
 *   mirrors it for tests, `decodeChangeNotice` reads it in every api process;
 * - a draft notice, `d:fan id:question id:0|1:text`, an AI answer as it is being written, sent by
 *   the process writing it (`encodeDraftNotice`, packages/answers) to every api process
 *   (`decodeFeedNotice`), which passes it to the fan's open chats;
 * - a fence notice, `x:token`, sent by an api process after a write it answered: when it hears its
 *   own fence back, it has heard every change committed before it (PostgreSQL delivers
 *   notifications in commit order), so the writer's next read sees its write (read your own writes).
 */

// Marked pure: a bundle that reads none of them (the fan app's service worker) leaves them out.

/** 'change' event data. */
export const liveChangeSchema = /* @__PURE__ */ z.object({ kind: z.enum(LIVE_CHANGE_KINDS) });
/** 'draft' event data. */
export const liveDraftSchema = /* @__PURE__ */ z.object({
  replyTo: z.string(),
  text: z.string(),
  done: z.boolean(),
});
/** 'sync' event data: an object, whatever it holds. */
export const liveSyncSchema = /* @__PURE__ */ z.object({});

/** Every event a stream sends, as `{ event, data }`. */
export const liveEventSchema = /* @__PURE__ */ z.discriminatedUnion('event', [
  z.object({ event: z.literal('change'), data: liveChangeSchema }),
  z.object({ event: z.literal('sync'), data: liveSyncSchema }),
  z.object({ event: z.literal('draft'), data: liveDraftSchema }),
]);

/** An id inside a notice: colons separate the fields, so an id holds none (and is not empty). */
const noticeId = /* @__PURE__ */ z.string().regex(/^[^:]+$/);

/**
 * NOTIFY payloads are limited to 8000 bytes; a draft notice longer than this is not sent (the
 * stored answer follows and replaces the draft anyway).
 */
export const DRAFT_NOTICE_MAX_BYTES = 7_000;

/** An AI answer as it is being written, for the open chats of `fanId`. */
export const draftNoticeSchema = /* @__PURE__ */ z.object({
  fanId: noticeId,
  replyTo: noticeId,
  done: z.boolean(),
  text: z.string(),
});
export type DraftNotice = z.infer<typeof draftNoticeSchema>;

/** The scopes a change is announced for: a creator's inbox, public face, a fan's conversation, a session. */
export const CHANGE_SCOPES = ['c', 'p', 'f', 's'] as const;
export type ChangeScope = (typeof CHANGE_SCOPES)[number];

/** A committed write, as the change feed announces it: the scope's new version and the table written. */
export const changeNoticeSchema = /* @__PURE__ */ z.object({
  scope: z.enum(CHANGE_SCOPES),
  id: noticeId,
  version: z.string().regex(/^\d+$/),
  /** The table written. */
  table: noticeId,
  /** For a creator's inbox change: the fan whose conversation it was. */
  fanId: noticeId.nullable(),
});
export type ChangeNotice = z.infer<typeof changeNoticeSchema>;

const DRAFT_PREFIX = 'd:';

/**
 * The NOTIFY payload for a draft, or null when it may not be sent: longer than
 * DRAFT_NOTICE_MAX_BYTES (the draft is skipped, as it always was), or ids that would not read back.
 */
export function encodeDraftNotice(notice: DraftNotice): string | null {
  const checked = draftNoticeSchema.safeParse(notice);
  if (!checked.success) return null;
  const { fanId, replyTo, done, text } = checked.data;
  const payload = `${DRAFT_PREFIX}${fanId}:${replyTo}:${done ? 1 : 0}:${text}`;
  return new TextEncoder().encode(payload).length > DRAFT_NOTICE_MAX_BYTES ? null : payload;
}

/** A draft notice's payload read back, or null when it is not one. The text may hold colons. */
export function decodeDraftNotice(payload: string): DraftNotice | null {
  if (!payload.startsWith(DRAFT_PREFIX)) return null;
  const parts = payload.split(':');
  const [, fanId, replyTo, done] = parts;
  if (done !== '0' && done !== '1') return null;
  const read = draftNoticeSchema.safeParse({
    fanId,
    replyTo,
    done: done === '1',
    text: parts.slice(4).join(':'),
  });
  return read.success ? read.data : null;
}

/** A change notice as the database's trigger writes it (for tests and tools; the database is the writer). */
export function encodeChangeNotice(notice: ChangeNotice): string {
  const { scope, id, version, table, fanId } = changeNoticeSchema.parse(notice);
  return `${scope}:${id}:${version}:${table}${fanId === null ? '' : `:${fanId}`}`;
}

/** A change notice read back, or null when the payload is not one. */
export function decodeChangeNotice(payload: string): ChangeNotice | null {
  const parts = payload.split(':');
  if (parts.length < 4 || parts.length > 5) return null;
  const [scope, id, version, table, fanId] = parts;
  // The trigger leaves the fan out when there is none; an empty one reads as none too.
  const read = changeNoticeSchema.safeParse({ scope, id, version, table, fanId: fanId || null });
  return read.success ? read.data : null;
}

const FENCE_PREFIX = 'x:';
const FENCE_TOKEN = /^[A-Za-z0-9_.-]{1,100}$/;

/** A fence's NOTIFY payload (`token`: letters, digits, `_.-`, at most 100). */
export function encodeFenceNotice(token: string): string {
  if (!FENCE_TOKEN.test(token)) throw new Error(`not a fence token: ${token}`);
  return `${FENCE_PREFIX}${token}`;
}

/** Whatever arrives on the change feed's channel, told apart; null for what is none of them. */
export type FeedNotice =
  | { type: 'draft'; draft: DraftNotice }
  | { type: 'change'; change: ChangeNotice }
  | { type: 'fence'; token: string };

export function decodeFeedNotice(payload: string): FeedNotice | null {
  if (payload.startsWith(FENCE_PREFIX)) {
    const token = payload.slice(FENCE_PREFIX.length);
    return FENCE_TOKEN.test(token) ? { type: 'fence', token } : null;
  }
  if (payload.startsWith(DRAFT_PREFIX)) {
    const draft = decodeDraftNotice(payload);
    return draft ? { type: 'draft', draft } : null;
  }
  const change = decodeChangeNotice(payload);
  return change ? { type: 'change', change } : null;
}
