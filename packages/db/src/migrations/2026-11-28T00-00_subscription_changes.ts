import { type Kysely, sql } from 'kysely';

// A fan subscribing, renewing, lapsing or cancelling changes what the creator's inbox shows (the
// subscriber mark): it now bumps the creator's change version like a message does, so an inbox poll
// answered 304 before the change is a full answer after it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create trigger fan_subscriptions_changes after insert or update or delete on fan_subscriptions
    for each row execute function changes_track()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists fan_subscriptions_changes on fan_subscriptions`.execute(db);
}
