import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Subscriber alerts (docs/decisions/0063-subscriber-alerts.md): a fan's subscription that started
 * (Stripe's facts set `started_at`) notes a `new_subscriber` alert, and one that is cancelled
 * (cancelled at the period's end, or ended: status `canceled`) a `subscription_cancelled` alert,
 * each once per subscription, in the transaction that applies Stripe's event (record 0061).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function creator_alert_subscription() returns trigger language plpgsql as $$
    declare who text;
    begin
      select f.name into who from fans f where f.id = new.fan_id;
      who := coalesce(who, new.email, 'A fan');
      if new.started_at is not null and (tg_op = 'INSERT' or old.started_at is null) then
        perform creator_alert_add(new.creator_id, 'new_subscriber', new.id::text, new.fan_id, who);
      end if;
      if (new.status = 'canceled' or new.cancel_at_period_end)
        and (tg_op = 'INSERT' or not (old.status = 'canceled' or old.cancel_at_period_end)) then
        perform creator_alert_add(new.creator_id, 'subscription_cancelled', new.id::text, new.fan_id, who);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger fan_subscriptions_alert after insert or update on fan_subscriptions
    for each row execute function creator_alert_subscription()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists fan_subscriptions_alert on fan_subscriptions`.execute(db);
  await sql`drop function if exists creator_alert_subscription()`.execute(db);
}
