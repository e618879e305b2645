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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists job_outbox`.execute(db);
}
