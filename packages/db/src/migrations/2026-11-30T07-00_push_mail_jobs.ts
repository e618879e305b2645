import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Push and mail go through the one job outbox (docs/decisions/0077-one-job-outbox.md): the triggers
 * on messages and notices, and the creator alerts, write their `fan-push` job (`{ kind, id }`, key
 * `push-<kind>-<id>`) to `job_outbox` in the transaction that stores them, and `queueMail` writes a
 * `mail` job (`{ mailId }`, key `mail-<id>`) beside the mail it stores. The relay is the one mover:
 * `push_outbox` is gone (its waiting rows become jobs here), and `mail_outbox` keeps only what a mail
 * is (its text, a secret link) and how its delivery went (sent, failed, bounced; kept 30 days for
 * support and the bounce note): `queued_at`, the old drain's mark, is gone (unqueued mails become jobs).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function push_outbox_add() returns trigger language plpgsql as $$
    declare
      kind_ text := case when tg_table_name = 'messages' then 'message' else 'notice' end;
    begin
      insert into job_outbox (name, payload, job_key)
        values ('fan-push', jsonb_build_object('kind', kind_, 'id', new.id::text),
          'push-' || kind_ || '-' || new.id::text)
        on conflict (name, job_key) where job_key is not null do nothing;
      perform pg_notify('fp_jobs', '');
      return null;
    end $$`.execute(db);
  await sql`insert into job_outbox (name, payload, job_key)
    select 'fan-push', jsonb_build_object('kind', kind, 'id', ref), 'push-' || kind || '-' || ref
      from push_outbox order by id
    on conflict (name, job_key) where job_key is not null do nothing`.execute(db);
  await sql`drop table push_outbox`.execute(db);

  await sql`insert into job_outbox (name, payload, job_key)
    select 'mail', jsonb_build_object('mailId', id::text), 'mail-' || id::text
      from mail_outbox
      where queued_at is null and sent_at is null and failed_at is null
      order by created_at
    on conflict (name, job_key) where job_key is not null do nothing`.execute(db);
  await sql`drop index if exists mail_outbox_unqueued_idx`.execute(db);
  await sql`alter table mail_outbox drop column queued_at`.execute(db);
  await sql`select pg_notify('fp_jobs', '')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mail_outbox add column queued_at timestamptz`.execute(db);
  // Mails still waiting as jobs are taken by the mail drain again.
  await sql`update mail_outbox set queued_at = now()
    where id::text not in (select payload->>'mailId' from job_outbox where name = 'mail')`.execute(db);
  await sql`create index mail_outbox_unqueued_idx on mail_outbox (created_at) where queued_at is null`.execute(
    db,
  );
  await sql`delete from job_outbox where name = 'mail'`.execute(db);
  await sql`create table push_outbox (
    id bigserial primary key,
    kind text not null constraint push_outbox_kind_check check (kind in ('message', 'notice', 'alert')),
    ref text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`insert into push_outbox (kind, ref)
    select payload->>'kind', payload->>'id' from job_outbox where name = 'fan-push' order by id`.execute(db);
  await sql`delete from job_outbox where name = 'fan-push'`.execute(db);
  await sql`create or replace function push_outbox_add() returns trigger language plpgsql as $$
    begin
      insert into push_outbox (kind, ref)
        values (case when tg_table_name = 'messages' then 'message' else 'notice' end, new.id::text);
      perform pg_notify('fp_push', '');
      return null;
    end $$`.execute(db);
}
