import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Work after a commit has one owner (docs/decisions/0077-one-job-outbox.md): a use case that wants a
 * job run after its change writes a row here in the change's own transaction (with a NOTIFY on
 * `fp_jobs`, delivered on commit). The relay moves committed rows to the job queue and deletes
 * them in one transaction, so a process that dies between the commit and the enqueue loses nothing:
 * the row waits for the next relay. `job_key` is the queue's job id (null: `<name>-<id>`); while a
 * row with the same name and key waits, another is not added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table job_outbox (
    id bigserial primary key,
    name text not null,
    payload jsonb not null,
    job_key text,
    priority integer,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create unique index job_outbox_name_key on job_outbox (name, job_key) where job_key is not null`.execute(
    db,
  );
  await ingestJobs(db);
}

/**
 * A knowledge item put pending under a new run (added, retried, re-synced, or found stuck by the
 * sweep) asks for its ingest job in the same statement: whichever path wrote it, the job is
 * committed with it. The run is the job id, as before.
 */
async function ingestJobs(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function knowledge_item_ingest_job() returns trigger language plpgsql as $$
    begin
      insert into job_outbox (name, payload, job_key)
        values ('knowledge-ingest',
          jsonb_build_object('knowledgeItemId', new.id::text, 'run', coalesce(new.job_run, new.id::text)),
          coalesce(new.job_run, new.id::text))
        on conflict (name, job_key) where job_key is not null do nothing;
      perform pg_notify('fp_jobs', '');
      return null;
    end $$`.execute(db);
  await sql`create trigger knowledge_items_ingest_job after insert on knowledge_items
    for each row when (new.status = 'pending')
    execute function knowledge_item_ingest_job()`.execute(db);
  await sql`create trigger knowledge_items_ingest_job_again after update of job_run on knowledge_items
    for each row when (new.status = 'pending' and new.job_run is distinct from old.job_run)
    execute function knowledge_item_ingest_job()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists knowledge_items_ingest_job_again on knowledge_items`.execute(db);
  await sql`drop trigger if exists knowledge_items_ingest_job on knowledge_items`.execute(db);
  await sql`drop function if exists knowledge_item_ingest_job()`.execute(db);
  await sql`drop table if exists job_outbox`.execute(db);
}
