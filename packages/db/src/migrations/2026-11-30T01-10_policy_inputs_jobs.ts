import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * What the answer policy reads changed for a creator, so questions waiting for the creator may now
 * be the AI's (docs/decisions/0077-one-job-outbox.md): the change writes an
 * `answer-policy-inputs-changed` job for that creator into the job outbox, in its own statement,
 * whichever route or use case made it. Credits added (a purchase), the creator gone Offline, a
 * chatbot made or its daily budget raised, and a fan's subscription written (it may open the chat).
 * Each change is a job of its own (no key): a job already running may have read the state before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function answer_policy_inputs_changed() returns trigger language plpgsql as $$
    begin
      -- The creator's id is the column the trigger names (id on creators, creator_id elsewhere).
      insert into job_outbox (name, payload)
        values ('answer-policy-inputs-changed',
          jsonb_build_object('creatorId', to_jsonb(new) ->> tg_argv[0]));
      perform pg_notify('fp_jobs', '');
      return null;
    end $$`.execute(db);
  await sql`create trigger credit_ledger_policy_inputs after insert on credit_ledger
    for each row when (new.delta > 0)
    execute function answer_policy_inputs_changed('creator_id')`.execute(db);
  await sql`create trigger creators_policy_inputs after update of is_online on creators
    for each row when (old.is_online and not new.is_online)
    execute function answer_policy_inputs_changed('id')`.execute(db);
  await sql`create trigger chatbots_policy_inputs after insert on chatbots
    for each row execute function answer_policy_inputs_changed('creator_id')`.execute(db);
  await sql`create trigger chatbots_policy_inputs_budget after update of daily_ai_budget on chatbots
    for each row when (new.daily_ai_budget > old.daily_ai_budget)
    execute function answer_policy_inputs_changed('creator_id')`.execute(db);
  // A subscription's state, its access or whose it is changed (webhooks, rare): looked at again.
  await sql`create trigger fan_subscriptions_policy_inputs after insert or update on fan_subscriptions
    for each row execute function answer_policy_inputs_changed('creator_id')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [trigger, table] of [
    ['fan_subscriptions_policy_inputs', 'fan_subscriptions'],
    ['chatbots_policy_inputs_budget', 'chatbots'],
    ['chatbots_policy_inputs', 'chatbots'],
    ['creators_policy_inputs', 'creators'],
    ['credit_ledger_policy_inputs', 'credit_ledger'],
  ] as const) {
    await sql`drop trigger if exists ${sql.raw(trigger)} on ${sql.raw(table)}`.execute(db);
  }
  await sql`drop function if exists answer_policy_inputs_changed()`.execute(db);
}
