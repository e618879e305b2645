import { sql } from 'kysely';
import type { Db } from './db.ts';

export function noticesRepository(db: Db) {
  return {
    /**
     * Stores a notice; sent_count is the creator's fans at this moment ('Delivered to N fans'). With
     * `push`, its commit asks for a push to every subscribed device (the push outbox's trigger).
     */
    insert: (creatorId: string, message: string, push = false) =>
      db
        .insertInto('notices')
        .values({
          creator_id: creatorId,
          message,
          push,
          sent_count: sql<number>`(select count(*)::int from fans where creator_id = ${creatorId})`,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    current: (creatorId: string) =>
      db
        .selectFrom('notices')
        .selectAll()
        .where('creator_id', '=', creatorId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    history: (creatorId: string, limit: number) =>
      db
        .selectFrom('notices')
        .selectAll()
        .where('creator_id', '=', creatorId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),
    /** Marks a notice as pushed to fans' devices; its creator, or undefined when it is gone. */
    markPushed: (id: string) =>
      db
        .updateTable('notices')
        .set({ push: true })
        .where('id', '=', id)
        .returning('creator_id')
        .executeTakeFirst(),
    /** One more device reached by the notice's push. */
    countDelivery: async (id: string) => {
      await db
        .updateTable('notices')
        .set((eb) => ({ pushed_count: eb('pushed_count', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
  };
}
