import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Insights' daily counts (docs/decisions/0081-insights-topics-and-charts.md): a period's report is
 * a sum over at most 90 daily rows per topic (and per creator for answer quality), not a scan of
 * every question. A change that moves a count (a fan question asked or deleted, an AI answer stored,
 * a hand-over, a rating, a question grouped into a topic or a topic dropped) marks its creator's day
 * in `insight_dirty_days`, in the same transaction, by statement triggers (one small insert per
 * statement, never a lock on a shared row: fans' answers are not slowed nor serialized). The marks
 * are append-only so a mark committed while a refresh runs survives it; `insight_refresh_days`
 * recounts just the marked days from the raw rows (the grouping run and the report call it).
 * The counts follow the report's definitions: a question is the fan's message; answered by the AI
 * when the AI's reply exists and the question was not handed over; ratings are the AI reply's;
 * first-answer seconds are kept per day (answered_at - created_at) so a week's median is exact.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table insight_days (
    creator_id uuid not null references creators(id) on delete cascade,
    day date not null,
    questions integer not null,
    answered integer not null,
    ratings_up integer not null,
    ratings_down integer not null,
    answer_seconds integer[] not null default '{}',
    primary key (creator_id, day)
  )`.execute(db);
  await sql`create table insight_topic_days (
    topic_id bigint not null references question_topics(id) on delete cascade,
    creator_id uuid not null references creators(id) on delete cascade,
    day date not null,
    questions integer not null,
    answered integer not null,
    ratings_up integer not null,
    ratings_down integer not null,
    primary key (topic_id, day)
  )`.execute(db);
  await sql`create index insight_topic_days_creator_idx on insight_topic_days (creator_id, day)`.execute(db);
  // No foreign key: a creator's deletion marks days while its rows go.
  await sql`create table insight_dirty_days (
    id bigint generated always as identity primary key,
    creator_id uuid not null,
    day date not null
  )`.execute(db);
  await sql`create index insight_dirty_days_creator_idx on insight_dirty_days (creator_id)`.execute(db);
  // A day of a creator's questions (the recount's range read).
  await sql`create index messages_fan_questions_time_idx on messages (creator_id, created_at)
    where sender = 'fan'`.execute(db);

  await sql`create function insight_refresh_days(p_creator uuid, p_days date[]) returns void
  language plpgsql as $fn$
  begin
    if not exists (select 1 from creators where id = p_creator) then
      return;
    end if;
    insert into insight_days (creator_id, day, questions, answered, ratings_up, ratings_down, answer_seconds)
    select p_creator, d.day, count(q.id),
      count(q.id) filter (where a.id is not null and q.ai_handed_over_at is null),
      count(q.id) filter (where a.fan_rating = 'up'),
      count(q.id) filter (where a.fan_rating = 'down'),
      coalesce(array_agg(round(extract(epoch from (q.answered_at - q.created_at)))::integer)
        filter (where q.answered_at is not null), '{}')
    from unnest(p_days) as d(day)
    join messages q on q.creator_id = p_creator and q.sender = 'fan'
      and q.created_at >= (d.day::timestamp at time zone 'UTC')
      and q.created_at < ((d.day + 1)::timestamp at time zone 'UTC')
    left join messages a on a.reply_to = q.id and a.sender = 'Creatorai'
    group by d.day
    on conflict (creator_id, day) do update set questions = excluded.questions,
      answered = excluded.answered, ratings_up = excluded.ratings_up,
      ratings_down = excluded.ratings_down, answer_seconds = excluded.answer_seconds;
    delete from insight_days i where i.creator_id = p_creator and i.day = any(p_days)
      and not exists (select 1 from messages q where q.creator_id = p_creator and q.sender = 'fan'
        and q.created_at >= (i.day::timestamp at time zone 'UTC')
        and q.created_at < ((i.day + 1)::timestamp at time zone 'UTC'));

    create temporary table if not exists insight_topic_recount (
      topic_id bigint, day date, questions integer, answered integer, ratings_up integer, ratings_down integer
    ) on commit drop;
    delete from insight_topic_recount;
    insert into insight_topic_recount
    select m.topic_id, d.day, count(*),
      count(*) filter (where a.id is not null and q.ai_handed_over_at is null),
      count(*) filter (where a.fan_rating = 'up'),
      count(*) filter (where a.fan_rating = 'down')
    from unnest(p_days) as d(day)
    join question_topic_members m on m.creator_id = p_creator
      and m.asked_at >= (d.day::timestamp at time zone 'UTC')
      and m.asked_at < ((d.day + 1)::timestamp at time zone 'UTC')
    join messages q on q.id = m.message_id
    left join messages a on a.reply_to = q.id and a.sender = 'Creatorai'
    group by m.topic_id, d.day;
    insert into insight_topic_days (topic_id, creator_id, day, questions, answered, ratings_up, ratings_down)
    select r.topic_id, p_creator, r.day, r.questions, r.answered, r.ratings_up, r.ratings_down
    from insight_topic_recount r
    where exists (select 1 from question_topics t where t.id = r.topic_id)
    on conflict (topic_id, day) do update set questions = excluded.questions,
      answered = excluded.answered, ratings_up = excluded.ratings_up, ratings_down = excluded.ratings_down;
    delete from insight_topic_days i where i.creator_id = p_creator and i.day = any(p_days)
      and not exists (select 1 from insight_topic_recount r where r.topic_id = i.topic_id and r.day = i.day);
  end
  $fn$`.execute(db);

  // Marks: the day of a fan question (its own), of an AI reply (its question's), of a topic member.
  await sql`create function insight_mark_messages() returns trigger language plpgsql as $fn$
  begin
    if tg_op = 'INSERT' then
      insert into insight_dirty_days (creator_id, day)
      select distinct r.creator_id, (coalesce(q.created_at, r.created_at) at time zone 'UTC')::date
      from changed_new r left join messages q on q.id = r.reply_to
      where r.sender = 'fan' or (r.sender = 'Creatorai' and r.reply_to is not null);
    elsif tg_op = 'DELETE' then
      insert into insight_dirty_days (creator_id, day)
      select distinct r.creator_id, (coalesce(q.created_at, r.created_at) at time zone 'UTC')::date
      from changed_old r left join messages q on q.id = r.reply_to
      where r.sender = 'fan' or (r.sender = 'Creatorai' and r.reply_to is not null);
    else
      insert into insight_dirty_days (creator_id, day)
      select distinct x.creator_id, (coalesce(q.created_at, x.created_at) at time zone 'UTC')::date
      from changed_old o join changed_new n on n.id = o.id
      cross join lateral (values (o.creator_id, o.created_at, o.reply_to, o.sender),
        (n.creator_id, n.created_at, n.reply_to, n.sender)) as x(creator_id, created_at, reply_to, sender)
      left join messages q on q.id = x.reply_to
      where (x.sender = 'fan' or (x.sender = 'Creatorai' and x.reply_to is not null))
        and (o.fan_rating is distinct from n.fan_rating
          or o.ai_handed_over_at is distinct from n.ai_handed_over_at
          or o.answered_at is distinct from n.answered_at
          or o.created_at is distinct from n.created_at
          or o.reply_to is distinct from n.reply_to
          or o.sender is distinct from n.sender
          or o.creator_id is distinct from n.creator_id);
    end if;
    return null;
  end
  $fn$`.execute(db);
  await sql`create trigger messages_insight_insert after insert on messages
    referencing new table as changed_new for each statement execute function insight_mark_messages()`.execute(
    db,
  );
  await sql`create trigger messages_insight_delete after delete on messages
    referencing old table as changed_old for each statement execute function insight_mark_messages()`.execute(
    db,
  );
  await sql`create trigger messages_insight_update after update on messages
    referencing old table as changed_old new table as changed_new
    for each statement execute function insight_mark_messages()`.execute(db);

  await sql`create function insight_mark_members() returns trigger language plpgsql as $fn$
  begin
    if tg_op in ('INSERT', 'UPDATE') then
      insert into insight_dirty_days (creator_id, day)
      select distinct creator_id, (asked_at at time zone 'UTC')::date from changed_new;
    end if;
    if tg_op in ('DELETE', 'UPDATE') then
      insert into insight_dirty_days (creator_id, day)
      select distinct creator_id, (asked_at at time zone 'UTC')::date from changed_old;
    end if;
    return null;
  end
  $fn$`.execute(db);
  await sql`create trigger members_insight_insert after insert on question_topic_members
    referencing new table as changed_new for each statement execute function insight_mark_members()`.execute(
    db,
  );
  await sql`create trigger members_insight_delete after delete on question_topic_members
    referencing old table as changed_old for each statement execute function insight_mark_members()`.execute(
    db,
  );
  await sql`create trigger members_insight_update after update on question_topic_members
    referencing old table as changed_old new table as changed_new
    for each statement execute function insight_mark_members()`.execute(db);

  // Backfill: every day with questions, counted now.
  await sql`select insight_refresh_days(c.creator_id, c.days)
    from (select creator_id, array_agg(distinct (created_at at time zone 'UTC')::date) as days
      from messages where sender = 'fan' group by creator_id) c`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists members_insight_update on question_topic_members`.execute(db);
  await sql`drop trigger if exists members_insight_delete on question_topic_members`.execute(db);
  await sql`drop trigger if exists members_insight_insert on question_topic_members`.execute(db);
  await sql`drop trigger if exists messages_insight_update on messages`.execute(db);
  await sql`drop trigger if exists messages_insight_delete on messages`.execute(db);
  await sql`drop trigger if exists messages_insight_insert on messages`.execute(db);
  await sql`drop function if exists insight_mark_members()`.execute(db);
  await sql`drop function if exists insight_mark_messages()`.execute(db);
  await sql`drop function if exists insight_refresh_days(uuid, date[])`.execute(db);
  await sql`drop index if exists messages_fan_questions_time_idx`.execute(db);
  await sql`drop table if exists insight_dirty_days`.execute(db);
  await sql`drop table if exists insight_topic_days`.execute(db);
  await sql`drop table if exists insight_days`.execute(db);
}
