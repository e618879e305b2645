import { FAN_FORBIDDEN_MESSAGE, notThisBrowsers } from './conversations/fan-access.ts';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';

// Who may read or follow what: the one rule for polls, validators (304s) and event streams alike
// (docs/decisions/0003-fans.md, "A fan's conversation belongs to its browser", and
// docs/decisions/0017-every-right-is-checked-for-as-long-as-it-is-used-event-strea.md). These are
// pure checks; the reads below give them fresh rows.

/** Who is asking about a fan's conversation: the browser's fan cookie, and the signed-in creator. */
export interface FanRequester {
  /** The hash of this browser's fan cookie token, or null when it holds no valid fan cookie. */
  cookieHash: string | null;
  /** The signed-in creator, or null. */
  creatorId: string | null;
}

/** A conversation (one creator's fan row) as far as the rule needs it. */
export interface ConversationBinding {
  creator_id: string;
  /** The hash of the fan cookie token of the browser the conversation is bound to. */
  cookie_hash: string | null;
}

/**
 * The one rule for a fan's conversation. A conversation is bound to the fan cookie of the browser
 * that first asked in it. That browser may read it, write in it (asking, renaming), download its
 * files and follow it live; the creator it talks to may read it and its files; nobody else may do
 * anything. Knowing the fan id gives nothing. A conversation that is gone (`row` undefined, deleted
 * by its creator) gives nothing to anyone.
 */
export function mayActAsFan(
  who: FanRequester,
  row: ConversationBinding | null | undefined,
  action: 'read' | 'write',
): boolean {
  if (!row) return false;
  if (who.cookieHash !== null && row.cookie_hash !== null && who.cookieHash === row.cookie_hash) return true;
  return action === 'read' && who.creatorId !== null && who.creatorId === row.creator_id;
}

/** A creator's session as far as the rule needs it. */
export interface SessionGrant {
  creatorId: string;
  /** When it expires (ms since the epoch, or a Date). */
  expiresAt: number | Date;
}

/** Whether a session is still valid (it exists and has not expired). */
export function sessionIsLive(session: SessionGrant | null | undefined, now = Date.now()): boolean {
  return !!session && new Date(session.expiresAt).getTime() > now;
}

/**
 * Whether this session may see creator `creatorId`'s dashboard (their inbox, settings and live
 * events): it is valid, and it is that creator's. A signed-out session (its row deleted) is
 * `undefined` here and gives nothing.
 */
export function sessionActsFor(
  session: SessionGrant | null | undefined,
  creatorId: string,
  now = Date.now(),
): boolean {
  return sessionIsLive(session, now) && session!.creatorId === creatorId;
}

/** The current binding of each of these conversations (fan row ids); a deleted one is missing. */
export async function conversationBindings(
  db: Db,
  fanIds: readonly string[],
): Promise<Map<string, ConversationBinding>> {
  const out = new Map<string, ConversationBinding>();
  if (fanIds.length === 0) return out;
  const rows = await db
    .selectFrom('fans')
    .select(['id', 'creator_id', 'cookie_hash'])
    .where('id', 'in', [...fanIds])
    .execute();
  for (const row of rows) out.set(row.id, { creator_id: row.creator_id, cookie_hash: row.cookie_hash });
  return out;
}

/** These sessions (by id, the token's hash) as they are now; a signed-out one is missing. */
export async function sessionGrants(db: Db, ids: readonly string[]): Promise<Map<string, SessionGrant>> {
  const out = new Map<string, SessionGrant>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'creator_id', 'expires_at'])
    .where('id', 'in', [...ids])
    .execute();
  for (const row of rows) out.set(row.id, { creatorId: row.creator_id, expiresAt: new Date(row.expires_at) });
  return out;
}

/**
 * mayActAsFan as a refusal: returns the row when `who` may `action` on it, else throws forbidden
 * (by default the message a fan's browser shows for another browser's conversation).
 */
export function requireFanAccess<T extends ConversationBinding>(
  who: FanRequester,
  row: T | null | undefined,
  action: 'read' | 'write',
  message: string = FAN_FORBIDDEN_MESSAGE,
): T {
  if (!mayActAsFan(who, row, action)) throw new DomainError('forbidden', 'forbidden', message);
  return row!;
}

/**
 * Of the conversations a fan id names, those `who` may read. A fan id nobody has used reads as a
 * new fan's empty chat; one that is only someone else's is refused, showing nothing of it.
 */
export function readableConversations<T extends ConversationBinding>(
  who: FanRequester,
  rows: readonly T[],
): T[] {
  const readable = rows.filter((row) => mayActAsFan(who, row, 'read'));
  if (rows.length > 0 && readable.length === 0) throw notThisBrowsers();
  return readable;
}

/** A fan's conversation as the fan-side caches hold it. */
export interface FanBinding {
  creatorId: string;
  cookieHash: string | null;
}

/**
 * Whether the browser with this fan cookie (its token's hash) may read and follow this
 * conversation: mayActAsFan, as a fan. The 304 shortcut, the fan event stream and the stream's
 * later re-checks all ask this.
 */
export const mayFollowAsFan = (cookieHash: string | null, fan: FanBinding | null | undefined): boolean =>
  mayActAsFan(
    { cookieHash, creatorId: null },
    fan ? { creator_id: fan.creatorId, cookie_hash: fan.cookieHash } : null,
    'read',
  );

/**
 * The conversation a fan event stream follows: not found until its first question (the fan app
 * polls until then), refused for any browser but the one it is bound to.
 */
export function followableConversation<T extends FanBinding>(
  cookieHash: string | null,
  fan: T | null | undefined,
): T {
  if (!fan) throw new DomainError('not_found', 'no_conversation', 'This conversation has no messages yet.');
  if (!mayFollowAsFan(cookieHash, fan)) throw notThisBrowsers();
  return fan;
}
