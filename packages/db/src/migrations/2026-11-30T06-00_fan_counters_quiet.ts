import { type Kysely, sql } from 'kysely';

/**
 * A fan row's counters (message_count, pending_count, last_message_at, last_fan_message_at,
 * last_activity_at) are written only by the messages triggers (2026-11-23T10-00_inbox), in the same
 * transaction as the message change, which the change feed already announces to the same scopes.
 * Announced again as a change of the fan row, they made every open stream of that fan hold its
 * events while its right was checked anew (a transfer changes the fan row too): the stored
 * answer's event waited for a database round trip (issue 39, docs/performance.md). The fan row is
 * now announced when anything but its counters changes.
 *
 * `memory_through` (how far the fan's memory has read, docs/decisions/0079) is not announced either:
 * nobody shows it, and announcing it took the change-feed row after the fan row, the opposite order
 * of a fan's question (change feed, then the fan row's counters), so a question asked while the
 * memory job ran could deadlock and fail with a 500.
 */
const COUNTERS = sql.raw(
  `array['message_count', 'pending_count', 'last_message_at', 'last_fan_message_at', 'last_activity_at', 'memory_through']`,
);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists fans_changes on fans`.execute(db);
  await sql`create trigger fans_changes after insert or delete on fans
    for each row execute function changes_track()`.execute(db);
  await sql`create trigger fans_changes_update after update on fans
    for each row when ((to_jsonb(old) - ${COUNTERS}) is distinct from (to_jsonb(new) - ${COUNTERS}))
    execute function changes_track()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists fans_changes_update on fans`.execute(db);
  await sql`drop trigger if exists fans_changes on fans`.execute(db);
  await sql`create trigger fans_changes after insert or update or delete on fans
    for each row execute function changes_track()`.execute(db);
}
