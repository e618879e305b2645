import type { Database } from '@fanpilot/db';
import { type Kysely, sql, type Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** A creator's credit balance: the sum of their ledger (grants, purchases, adjustments, answers). */
export async function creditBalance(db: Db, creatorId: string): Promise<number> {
  const row = await db
    .selectFrom('credit_ledger')
    .select(sql<string>`coalesce(sum(delta), 0)`.as('balance'))
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  return Number(row?.balance ?? 0);
}
