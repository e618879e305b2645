import type { Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';

export function sessionsRepository(db: Kysely<Database>) {
  return {
    async create(id: string, creatorId: string, expiresAt: Date) {
      await db.insertInto('sessions').values({ id, creator_id: creatorId, expires_at: expiresAt }).execute();
    },
    /** The creator of a live session, or undefined. */
    async remove(id: string) {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },
    async removeExpired() {
      await db.deleteFrom('sessions').where('expires_at', '<=', new Date()).execute();
    },
  };
}

/** A live session (by id, its token's hash) with its creator's id and username; undefined when none. */
export async function liveSessionOf(
  db: Kysely<Database>,
  id: string,
  now: Date = new Date(),
): Promise<{ creatorId: string; username: string; expiresAt: Date } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('creators', 'creators.id', 'sessions.creator_id')
    .select(['creators.id', 'creators.username', 'sessions.expires_at'])
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
  return row ? { creatorId: row.id, username: row.username, expiresAt: new Date(row.expires_at) } : undefined;
}
