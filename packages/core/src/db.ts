import type { Database } from '@fanpilot/db';
import { type Kysely, sql, type Transaction } from 'kysely';

/** A database handle or an open transaction: every core function takes one as its first argument. */
export type Db = Kysely<Database> | Transaction<Database>;

/** A round trip to the database (readiness checks). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
