import {
  normalizeUsername,
  RESERVED_USERNAMES,
  USERNAME_MAX_LENGTH,
  USERNAME_MESSAGES,
  USERNAME_MIN_LENGTH,
  type UsernameAvailability,
  usernameProblem,
} from '@fanpilot/contracts';
import { sql } from 'kysely';
import { creatorsRepository } from './creators.ts';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';

/** A URL-safe username from a Google profile: the e-mail's local part, else the name. */
export function usernameBase(profile: { email?: string | undefined; name?: string | undefined }): string {
  const slug = slugOf(profile.email?.split('@')[0] || profile.name || 'creator');
  return RESERVED_USERNAMES.has(slug) || slug.length < USERNAME_MIN_LENGTH
    ? `${slug || 'creator'}-fan`.replace(/^-/, '')
    : slug;
}

/** Lowercase a–z, digits and single hyphens, at most USERNAME_MAX_LENGTH long ('' when nothing is left). */
function slugOf(source: string): string {
  return source
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, USERNAME_MAX_LENGTH)
    .replace(/-+$/g, '');
}

/** The first free variant of base: base, base-2, base-3… (shortened to stay within the length). */
export function firstFreeUsername(base: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((t) => t.toLowerCase()));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, USERNAME_MAX_LENGTH - suffix.length).replace(/-+$/g, '')}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Whether another creator (any case) holds `username`. */
async function heldByAnother(db: Db, username: string, creatorId: string): Promise<boolean> {
  const row = await db
    .selectFrom('creators')
    .select('id')
    .where(sql<string>`lower(username)`, '=', username)
    .where('id', '<>', creatorId)
    .executeTakeFirst();
  return row !== undefined;
}

/** A free name near `base` (a valid one), or undefined. */
async function freeNear(db: Db, base: string): Promise<string | undefined> {
  if (!base || usernameProblem(base)) return undefined;
  return firstFreeUsername(base, await creatorsRepository(db).usernamesLike(base));
}

/**
 * Whether the creator `creatorId` may take `raw` as their username at signup: the rules of a
 * username (contracts' `usernameProblem`), then other creators' names (their own is theirs); with
 * the reason in words and, when refused, a free name close to it.
 */
export async function usernameAvailability(
  db: Db,
  creatorId: string,
  raw: string,
): Promise<UsernameAvailability> {
  const username = normalizeUsername(raw);
  const problem = usernameProblem(username);
  if (problem) {
    // Nothing of the name survives (emoji only…): no suggestion rather than a made-up one.
    const suggestion = slugOf(raw) ? await freeNear(db, usernameBase({ name: raw })) : undefined;
    return {
      username,
      available: false,
      reason: problem,
      message: USERNAME_MESSAGES[problem],
      ...(suggestion ? { suggestion } : {}),
    };
  }
  if (await heldByAnother(db, username, creatorId)) {
    const suggestion = await freeNear(db, username);
    return {
      username,
      available: false,
      reason: 'taken',
      message: USERNAME_MESSAGES.taken,
      ...(suggestion ? { suggestion } : {}),
    };
  }
  return { username, available: true };
}

/**
 * Refuses a username the creator may not take (400 for a broken rule, 409 when another creator
 * holds it). `username` is normalized.
 */
export async function assertUsernameFree(db: Db, creatorId: string, username: string): Promise<void> {
  const problem = usernameProblem(username);
  if (problem) throw new DomainError('invalid', 'invalid_username', USERNAME_MESSAGES[problem]);
  if (await heldByAnother(db, username, creatorId)) throw usernameTaken();
}

export const usernameTaken = () => new DomainError('conflict', 'username_taken', USERNAME_MESSAGES.taken);

/** Whether a database error is the unique index on usernames refusing a name taken meanwhile. */
export function isUsernameClash(err: unknown): boolean {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (e?.code !== '23505') return false;
  const where = `${String(e.constraint ?? '')} ${String(e.message ?? '')}`;
  return /username/.test(where);
}
