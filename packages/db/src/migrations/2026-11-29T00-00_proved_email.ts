import { type Kysely, sql } from 'kysely';

// A fan's identity (record 0069): the email a fan typed (lead capture) is contact information only;
// the email a fan PROVED (an emailed one-time restore link opened, or the payment provider's
// customer email on the fan's own Checkout) is kept apart, and only it reaches a subscription.
// Existing rows keep their email as contact; it counts as proved only where a subscription bought
// from that very conversation carries the same email (the provider proved it).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table fans add column proved_email text`.execute(db);
  await sql`update fans f set proved_email = lower(s.email)
    from fan_subscriptions s
    where s.fan_id = f.id and s.email is not null and f.email is not null
      and lower(s.email) = lower(f.email)`.execute(db);
  // Grace means grace: a failed renewal opens the chat until the grace's end, not through the unpaid
  // period (the stored access_until is what the dashboard shows; entitlement.ts decides from the state).
  await sql`update fan_subscriptions set access_until = grace_until
    where status = 'past_due' and ended_reason is null`.execute(db);
  // The entitlement's circles: an email's conversations with a creator (a browser's are found by
  // fans_creator_cookie_idx, 2026-11-29T03-00).
  // A circle's questions waiting ahead of one (the allowance counts them), found by fan, not by
  // reading every question the creator has waiting (a flood of 1,500 made that 0.3 s per sweep).
  await sql`create index messages_pending_by_fan_idx on messages (fan_id, id)
    where status = 'pending' and sender = 'fan'`.execute(db);
  await sql`create index fans_proved_email_idx on fans (creator_id, proved_email) where proved_email is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists fans_proved_email_idx`.execute(db);
  await sql`drop index if exists messages_pending_by_fan_idx`.execute(db);
  await sql`alter table fans drop column proved_email`.execute(db);
}
