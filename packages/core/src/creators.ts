import type { CreatorRow, CreatorUpdate } from '@fanpilot/db';
import { sql } from 'kysely';
import type { Db } from './db.ts';

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
