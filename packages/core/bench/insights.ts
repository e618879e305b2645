/**
 * Insights benchmark (issue 38): a creator with 10,000 fans and 100,000 questions over 180 days
 * (each with an AI answer or a hand-over; ratings, gaps, paywall and subscriptions among them),
 * grouped into 60 topics as the incremental grouping leaves them, on PGlite and PostgreSQL.
 * Prints, per engine:
 *   1. the whole Insights report computed (no cache; what the api computes at most once a minute
 *      per creator and period), from the daily counts, after today was marked changed (so each call
 *      also recounts today from the raw rows): p50 and p95 over the 7, 30 and 90 day periods;
 *   2. what an Insights call served from the api's cache still reads (the questions waiting to be
 *      grouped, the open gaps' version), and the gaps read anew: p50 and p95;
 *   3. grouping 256 new questions incrementally (key-word vectors: the grouping's own cost, without
 *      an embedder's).
 *
 *   pnpm --filter @fanpilot/core bench
 *
 * BENCH_FANS (10000), BENCH_QUESTIONS (100000), BENCH_RUNS (20 per period), BENCH_ENGINES
 * (pglite,postgres), BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the machine's loopback
 * PostgreSQL; '' skips PostgreSQL).
 */
import { performance } from 'node:perf_hooks';
import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import { createTestDatabase, seedCreator } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { gapRows, insightsReport, openGapsVersion } from '../src/insights/report.ts';
import { groupNewQuestions, keywordEmbedder, ungroupedQuestions } from '../src/insights/topics.ts';

const FANS = Number(process.env.BENCH_FANS ?? 10_000);
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const TOPICS = 60;
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const WORDS = ['tuning', 'course', 'price', 'tour', 'merch', 'shipping', 'recipe', 'starter', 'oven', 'gear'];
const topicText = (k: number) =>
  `question about ${WORDS[k % WORDS.length]} ${WORDS[(k * 7 + 3) % WORDS.length]} number${k}`;

let backfillSeconds = 0;

async function seed(h: DbHandle): Promise<string> {
  const { creatorId } = await seedCreator(h.db);
  // A script's bulk load: triggers off (set local: this transaction only), then the fans' counters
  // the funnel reads are filled in as the trigger would have.
  await h.db.transaction().execute(async (db) => {
    await sql`set local session_replication_role = replica`.execute(db);
    await sql`insert into fans (creator_id, fan_key, name, created_at, paywall_met_at, subscribed_at)
    select ${creatorId}::uuid, 'bench-' || i, 'Fan ' || i, now() - ((i % 180) * interval '1 day'),
      case when i % 10 = 0 then now() - ((i % 180) * interval '1 day') end,
      case when i % 40 = 0 then now() - ((i % 180) * interval '1 day') end
    from generate_series(1, ${FANS}::int) i`.execute(db);
    await sql`insert into messages (creator_id, fan_id, sender, body, status, created_at, answered_at, ai_handed_over_at, knowledge_gap_at)
    select ${creatorId}::uuid, f.id, 'fan', 'question about topic ' || (i % ${TOPICS}::int) || ' and thing ' || (i % 97), 'answered',
      t.ts, t.ts + interval '5 seconds',
      case when i % 20 = 0 then t.ts end,
      case when i % 33 = 0 then t.ts end
    from generate_series(1, ${QUESTIONS}::int) i
    join (select id, row_number() over (order by fan_key) as n from fans where creator_id = ${creatorId}::uuid) f
      on f.n = (i % ${FANS}::int) + 1
    cross join lateral (select now() - ((i % 180) * interval '1 day') - ((i % 1440) * interval '1 minute') as ts) t`.execute(
      db,
    );
    await sql`insert into messages (creator_id, fan_id, sender, body, reply_to, created_at, fan_rating, fan_rated_at)
    select creator_id, fan_id, 'Creatorai', 'An answer.', id, created_at + interval '5 seconds',
      case when id % 5 = 0 then 'up' when id % 17 = 0 then 'down' end,
      case when id % 5 = 0 or id % 17 = 0 then created_at + interval '1 minute' end
    from messages where creator_id = ${creatorId}::uuid and sender = 'fan' and ai_handed_over_at is null`.execute(
      db,
    );
    await sql`insert into fan_subscriptions (creator_id, provider_subscription_id, fan_id, state_at)
    select ${creatorId}::uuid, 'sub_' || id, id, 1 from fans where creator_id = ${creatorId}::uuid and subscribed_at is not null`.execute(
      db,
    );
    await sql`insert into fan_subscription_payments (invoice_id, provider_subscription_id, amount_cents, paid_at)
    select 'in_' || s.provider_subscription_id, s.provider_subscription_id, 900, f.subscribed_at
    from fan_subscriptions s join fans f on f.id = s.fan_id where s.creator_id = ${creatorId}::uuid`.execute(
      db,
    );
    // The topics as the incremental grouping leaves them.
    const centroids = await keywordEmbedder.embed(Array.from({ length: TOPICS }, (_, k) => topicText(k)));
    for (let k = 0; k < TOPICS; k++) {
      await db
        .insertInto('question_topics')
        .values({
          creator_id: creatorId,
          label: `Topic ${k}`,
          keywords: JSON.stringify({ [`topic${k}`]: 1 }),
          centroid: JSON.stringify(centroids[k]),
          embedder: keywordEmbedder.id,
          size: Math.round(QUESTIONS / TOPICS),
        })
        .execute();
    }
    await sql`insert into question_topic_members (message_id, creator_id, topic_id, asked_at)
    select m.id, m.creator_id, t.id, m.created_at
    from messages m
    join question_topics t on t.creator_id = m.creator_id
      and t.label = 'Topic ' || split_part(m.body, ' ', 4)
    where m.creator_id = ${creatorId}::uuid and m.sender = 'fan'`.execute(db);
    await sql`insert into question_topic_cursors (creator_id, last_message_id, embedder)
    select ${creatorId}::uuid, max(id), ${keywordEmbedder.id} from messages where creator_id = ${creatorId}::uuid`.execute(
      db,
    );
    await sql`update fans f set last_fan_message_at = m.last
    from (select fan_id, max(created_at) as last from messages where creator_id = ${creatorId}::uuid and sender = 'fan' group by fan_id) m
    where m.fan_id = f.id`.execute(db);
  });
  // The daily counts, as the migration's backfill makes them (the bulk load ran without triggers).
  const b0 = performance.now();
  await sql`select insight_refresh_days(${creatorId}::uuid, array(select distinct (created_at at time zone 'UTC')::date
    from messages where creator_id = ${creatorId}::uuid and sender = 'fan'))`.execute(h.db);
  backfillSeconds = (performance.now() - b0) / 1000;
  await sql`analyze`.execute(h.db);
  return creatorId;
}

async function run(label: string, h: DbHandle) {
  const t0 = performance.now();
  const creatorId = await seed(h);
  const loadSeconds = (performance.now() - t0) / 1000;
  const grouped = await h.db
    .selectFrom('question_topic_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('creator_id', '=', creatorId)
    .executeTakeFirstOrThrow();
  await insightsReport(h.db, creatorId, 30); // warm-up
  const report: number[] = [];
  const perPeriod: Record<number, number[]> = { 7: [], 30: [], 90: [] };
  for (let r = 0; r < RUNS; r++) {
    for (const period of [7, 30, 90] as const) {
      // Today changed since the last call (an answer landed): the call recounts that day first.
      await sql`insert into insight_dirty_days (creator_id, day) values (${creatorId}::uuid, (now() at time zone 'UTC')::date)`.execute(
        h.db,
      );
      const start = performance.now();
      await insightsReport(h.db, creatorId, period);
      const t = performance.now() - start;
      report.push(t);
      perPeriod[period]!.push(t);
    }
  }
  const everyCall: number[] = [];
  const gapsRead: number[] = [];
  for (let r = 0; r < RUNS * 3; r++) {
    const start = performance.now();
    await ungroupedQuestions(h.db, creatorId);
    await openGapsVersion(h.db, creatorId);
    everyCall.push(performance.now() - start);
    const g = performance.now();
    await gapRows(h.db, creatorId, new Date(Date.now() - 30 * 86_400_000), new Date());
    gapsRead.push(performance.now() - g);
  }
  const probe = await insightsReport(h.db, creatorId, 90);
  // 256 new questions, grouped incrementally.
  await sql`insert into messages (creator_id, fan_id, sender, body, status)
    select ${creatorId}::uuid, (select id from fans where creator_id = ${creatorId}::uuid limit 1), 'fan',
      'question about topic ' || (i % ${TOPICS}::int) || ' and thing ' || i, 'pending'
    from generate_series(1, 256) i`.execute(h.db);
  const g0 = performance.now();
  const n = await groupNewQuestions(h.db, creatorId, keywordEmbedder);
  const groupMs = performance.now() - g0;

  console.log(
    `\n${label}: ${FANS.toLocaleString('en')} fans, ${QUESTIONS.toLocaleString('en')} questions (${Number(grouped.n).toLocaleString('en')} grouped into ${TOPICS} topics), seeded in ${loadSeconds.toFixed(0)} s`,
  );
  console.log(`  the daily counts backfilled (every day recounted): ${backfillSeconds.toFixed(1)} s`);
  console.log(
    `  the Insights report, computed (no cache; today recounted first): p50 ${ms(percentile(report, 50))}, p95 ${ms(percentile(report, 95))}   (target p95 < 300 ms)`,
  );
  for (const p of [7, 30, 90])
    console.log(
      `    ${p} days: p50 ${ms(percentile(perPeriod[p]!, 50))}, p95 ${ms(percentile(perPeriod[p]!, 95))}`,
    );
  console.log(
    `  an Insights call served from the api's cache (questions waiting, the gaps' version): p50 ${ms(percentile(everyCall, 50))}, p95 ${ms(percentile(everyCall, 95))}`,
  );
  console.log(
    `  the gaps read anew (after one was asked, answered or set aside): p50 ${ms(percentile(gapsRead, 50))}, p95 ${ms(percentile(gapsRead, 95))}`,
  );
  console.log(
    `  90 days: ${probe.topics.length} topics shown (the first ${probe.topics[0]?.questions ?? 0} questions), ${probe.gaps.length} gap groups, ${probe.funnel.length} weeks`,
  );
  console.log(`  grouping ${n} new questions incrementally (key-word vectors): ${ms(groupMs)}`);
}

if (ENGINES.includes('pglite')) {
  const pglite = createDb({ dataDir: 'memory://' });
  await migrateToLatest(pglite.db);
  await run('PGlite (embedded default)', pglite);
  await pglite.close();
}

if (DATABASE_URL && ENGINES.includes('postgres')) {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  try {
    database = await createTestDatabase(DATABASE_URL);
  } catch (e) {
    console.log(`\nPostgreSQL at ${DATABASE_URL} unavailable (${(e as Error).message}): skipped`);
  }
  if (database) {
    const h = createDb({ databaseUrl: database.url });
    try {
      await migrateToLatest(h.db);
      await run('PostgreSQL', h);
    } finally {
      await h.close();
      await database.drop();
    }
  }
}
