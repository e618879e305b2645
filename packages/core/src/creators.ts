import type { CreatorRow, CreatorUpdate } from '@fanpilot/db';
import { sql } from 'kysely';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
import { notYours } from './ownership.ts';

export function creatorsRepository(db: Db) {
  return {
    findById: (id: string) => db.selectFrom('creators').selectAll().where('id', '=', id).executeTakeFirst(),
    findByGoogleSub: (sub: string) =>
      db.selectFrom('creators').selectAll().where('google_sub', '=', sub).executeTakeFirst(),
    findByUsername: (username: string) =>
      db
        .selectFrom('creators')
        .selectAll()
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst(),
    /** The username of the creator who finished onboarding first (by sign-up time), if any. */
    async earliestOnboardedUsername(): Promise<string | undefined> {
      const row = await db
        .selectFrom('creators')
        .select('username')
        .where('onboarding_complete', '=', true)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(1)
        .executeTakeFirst();
      return row?.username;
    },
    async usernamesLike(base: string): Promise<string[]> {
      const rows = await db
        .selectFrom('creators')
        .select('username')
        .where(sql<string>`lower(username)`, 'like', `${base.replace(/[%_\\]/g, '\\$&')}%`)
        .execute();
      return rows.map((r) => r.username.toLowerCase());
    },
    /** Inserts, or returns undefined when the username was taken meanwhile. */
    async insert(values: { googleSub: string; email: string; name: string; username: string }) {
      return db
        .insertInto('creators')
        .values({
          google_sub: values.googleSub,
          email: values.email,
          name: values.name,
          username: values.username,
          description: '',
        })
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst();
    },
    async update(id: string, values: CreatorUpdate): Promise<CreatorRow> {
      return db
        .updateTable('creators')
        .set({ ...values, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },
  };
}

/** The refusal when no creator fans can reach goes by this name. */
export const noCreatorCalled = (username: string) =>
  new DomainError('not_found', 'not_found', `No creator is called '${username}'.`);

/**
 * The creator fans reach under `username`: one who finished onboarding (docs/product.md#fan-chat).
 * `row` is the creator as looked up (undefined: nobody has the name); anyone else is not found.
 */
export function reachableCreator<T extends { onboarding_complete: boolean }>(
  row: T | undefined | null,
  username: string,
  message = `No creator is called '${username}'.`,
): T {
  if (!row?.onboarding_complete) throw new DomainError('not_found', 'not_found', message);
  return row;
}

/** A creator id found for a name (by a cached lookup); none: the name is nobody's. */
export function knownCreatorId(id: string | null | undefined, username: string): string {
  if (!id) throw noCreatorCalled(username);
  return id;
}

/** The creator fans reach under `username`, read from the database. */
export async function findReachableCreator(db: Db, username: string): Promise<CreatorRow> {
  return reachableCreator(await creatorsRepository(db).findByUsername(username), username);
}

/**
 * The signed-in creator acting under `username`: themselves, or refused — not found when nobody
 * has the name, forbidden when it is another creator's (docs/decisions/0004-privacy-of-creator-routes.md).
 */
export async function actingAs(db: Db, signedIn: CreatorRow, username: string): Promise<CreatorRow> {
  if (signedIn.username.toLowerCase() === username.toLowerCase()) return signedIn;
  const other = await creatorsRepository(db).findByUsername(username);
  if (!other) throw noCreatorCalled(username);
  throw notYours();
}

/** The id of the creator called `username` (any case), or undefined. */
export async function creatorIdByUsername(db: Db, username: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('creators')
    .select('id')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row?.id;
}

/** Whether a creator's profile shows the stored image `key` (an unused one may be swept). */
export async function profileImageInUse(db: Db, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('creators')
    .select('id')
    .where('profile_image_key', '=', key)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Replaces the description the creator wrote at signup (issue 29: editable in Profile Settings,
 * shown to fans under the creator's name). The contract trims it and bounds its length.
 */
export async function updateCreatorDescription(
  db: Db,
  creatorId: string,
  description: string,
): Promise<string> {
  const row = await db
    .updateTable('creators')
    .set({ description, updated_at: new Date() })
    .where('id', '=', creatorId)
    .returning('description')
    .executeTakeFirst();
  if (!row) throw new DomainError('not_found', 'not_found', 'No creator with this username.');
  return row.description;
}
