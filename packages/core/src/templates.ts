import type { Db } from './db.ts';

export function templatesRepository(db: Db) {
  return {
    list: (creatorId: string) =>
      db
        .selectFrom('templates')
        .selectAll()
        .where('creator_id', '=', creatorId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute(),
    async count(creatorId: string): Promise<number> {
      const row = await db
        .selectFrom('templates')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('creator_id', '=', creatorId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    insert: (creatorId: string, title: string, content: string) =>
      db
        .insertInto('templates')
        .values({ creator_id: creatorId, title, content })
        .returningAll()
        .executeTakeFirstOrThrow(),
    /** Deletes the creator's own template; false when they have none with that id. */
    async remove(creatorId: string, id: string): Promise<boolean> {
      const rows = await db
        .deleteFrom('templates')
        .where('creator_id', '=', creatorId)
        .where('id', '=', id)
        .returning('id')
        .execute();
      return rows.length > 0;
    },
  };
}
