import type { Database } from '@fanpilot/db';
import { type Kysely, sql, type Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

export function noticesRepository(db: Db) {
  return {
    /** Stores a notice; sent_count is the creator's fans at this moment ('Delivered to N fans'). */
    insert: (creatorId: string, message: string) =>
      db
        .insertInto('notices')
        .values({
          creator_id: creatorId,
          message,
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
  };
}
