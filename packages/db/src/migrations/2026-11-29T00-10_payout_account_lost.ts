import { type Kysely, sql } from 'kysely';

// The payment provider may stop knowing a creator's connected account (the platform's keys changed
// from test to live, the account was deleted or rejected, the local stand-in's state was wiped).
// When it answers so, the account is marked lost: the plan stops taking subscriptions, and the
// dashboard says to reconnect payouts (record 0076).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table creator_payout_accounts add column lost_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table creator_payout_accounts drop column lost_at`.execute(db);
}
