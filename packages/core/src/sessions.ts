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
