import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedFan, seedQuestion } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handOverToCreator } from '../conversations/hand-over-to-creator.ts';
import { storeAiAnswer } from '../conversations/store-ai-answer.ts';
import { openKnowledgeGaps } from '../knowledge-gaps.ts';
import { gapRows, insightsReport, refreshInsightDays } from './report.ts';
import { groupNewQuestions, keywordEmbedder } from './topics.ts';

const DAY = 86_400_000;

/** Insights' daily counts (record 0081) against a recount of the raw rows after a mix of writes. */
describe('insights daily counts', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 10));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  /** The counts straight from messages and members, per day (and per topic and day). */
  async function recount(creatorId: string) {
    const { rows: days } = await sql<{
      day: string;
      q: number;
      a: number;
      up: number;
      down: number;
      secs: number[];
    }>`
      select (q.created_at at time zone 'UTC')::date::text as day, count(*)::int as q,
        (count(*) filter (where a.id is not null and q.ai_handed_over_at is null))::int as a,
        (count(*) filter (where a.fan_rating = 'up'))::int as up,
        (count(*) filter (where a.fan_rating = 'down'))::int as down,
        coalesce(array_agg(round(extract(epoch from (q.answered_at - q.created_at)))::int order by 1)
          filter (where q.answered_at is not null), '{}') as secs
      from messages q left join messages a on a.reply_to = q.id and a.sender = 'Creatorai'
      where q.creator_id = ${creatorId}::uuid and q.sender = 'fan' group by 1 order by 1`.execute(db());
    const { rows: topics } = await sql<{
      topic: string;
      day: string;
      q: number;
      a: number;
      up: number;
      down: number;
    }>`
      select m.topic_id::text as topic, (m.asked_at at time zone 'UTC')::date::text as day, count(*)::int as q,
        (count(*) filter (where a.id is not null and q.ai_handed_over_at is null))::int as a,
        (count(*) filter (where a.fan_rating = 'up'))::int as up,
        (count(*) filter (where a.fan_rating = 'down'))::int as down
      from question_topic_members m join messages q on q.id = m.message_id
      left join messages a on a.reply_to = q.id and a.sender = 'Creatorai'
      where m.creator_id = ${creatorId}::uuid group by 1, 2 order by 1, 2`.execute(db());
    return { days, topics };
  }

  async function kept(creatorId: string) {
    const { rows: days } = await sql<{
      day: string;
      q: number;
      a: number;
      up: number;
      down: number;
      secs: number[];
    }>`
      select day::text as day, questions as q, answered as a, ratings_up as up, ratings_down as down,
        array(select x from unnest(answer_seconds) x order by x) as secs
      from insight_days where creator_id = ${creatorId}::uuid order by 1`.execute(db());
    const { rows: topics } = await sql<{
      topic: string;
      day: string;
      q: number;
      a: number;
      up: number;
      down: number;
    }>`
      select topic_id::text as topic, day::text as day, questions as q, answered as a, ratings_up as up,
        ratings_down as down
      from insight_topic_days where creator_id = ${creatorId}::uuid order by 1, 2`.execute(db());
    return { days, topics };
  }

  it('equal a recount of the raw rows after questions, answers, hand-overs, ratings, grouping and deleted conversations', async () => {
    const c = await seedCreator(db());
    const fans = await Promise.all(
      ['Ann', 'Ben', 'Cy', 'Dee'].map((name) => seedFan(db(), c.creatorId, { name })),
    );
    const bodies = [
      'How often should I feed my sourdough starter?',
      'Which oven do you bake in?',
      'What flour for a sourdough starter?',
      'Do you sell merch at the tour?',
    ];
    const asked: { id: string; fan: number }[] = [];
    // Today's questions are asked between midnight (UTC) and now, whatever the hour the test runs:
    // an hour before now was yesterday in the first hour of the day (a sixth day counted).
    const midnight = new Date();
    midnight.setUTCHours(0, 0, 0, 0);
    const earlierToday = midnight.getTime() + Math.floor((Date.now() - midnight.getTime()) / 2);
    for (let i = 0; i < 16; i++) {
      const fan = fans[i % fans.length]!;
      const id = await seedQuestion(db(), fan, bodies[i % bodies.length]!);
      // Spread over days (a created_at change moves the question's day: both days are recounted).
      const askedAt = new Date(earlierToday - (i % 5) * DAY);
      await sql`update messages set created_at = ${askedAt} where id = ${id}`.execute(db());
      asked.push({ id, fan: i % fans.length });
    }
    // Grouped before the answers land: later answers and ratings must move the topics' days too.
    await groupNewQuestions(db(), c.creatorId, keywordEmbedder);
    const replies: string[] = [];
    for (const [i, q] of asked.entries()) {
      if (i % 4 === 3) {
        expect(await handOverToCreator(db(), q.id)).toBe(true);
        continue;
      }
      const { replyId } = await storeAiAnswer(db(), {
        questionId: q.id,
        creatorId: c.creatorId,
        body: 'An answer.',
        sources: [],
        gap: i % 3 === 0,
        now: new Date(),
      });
      if (replyId) replies.push(replyId);
    }
    expect(replies.length).toBeGreaterThan(6);
    // Ratings (one taken back), a hand-over after the answer.
    await db()
      .updateTable('messages')
      .set({ fan_rating: 'up' })
      .where('id', 'in', replies.slice(0, 4))
      .execute();
    await db()
      .updateTable('messages')
      .set({ fan_rating: 'down' })
      .where('id', 'in', replies.slice(4, 6))
      .execute();
    await db().updateTable('messages').set({ fan_rating: null }).where('id', '=', replies[0]!).execute();
    await db()
      .updateTable('messages')
      .set({ ai_handed_over_at: new Date() })
      .where('id', '=', asked[1]!.id)
      .execute();
    // More questions, grouped later; one conversation deleted (its fan and every message go).
    await seedQuestion(db(), fans[0]!, 'Is my sourdough starter dead?');
    await seedQuestion(db(), fans[3]!, 'Where is the tour next?');
    await groupNewQuestions(db(), c.creatorId, keywordEmbedder);
    await db().deleteFrom('fans').where('id', '=', fans[2]!.id).execute();
    // An answer deleted on its own.
    await db().deleteFrom('messages').where('id', '=', replies[5]!).execute();

    expect(await refreshInsightDays(db(), c.creatorId)).toBeGreaterThan(0);
    const expected = await recount(c.creatorId);
    expect(expected.days.length).toBe(5);
    expect(expected.topics.length).toBeGreaterThan(5);
    expect(await kept(c.creatorId)).toEqual(expected);
    // Nothing left to recount until the next write.
    expect(await refreshInsightDays(db(), c.creatorId)).toBe(0);

    // The report's sums are the recount's.
    const report = await insightsReport(db(), c.creatorId, 7, new Date(Date.now() + 1000));
    const total = expected.days.reduce((a, d) => a + d.q, 0);
    expect(report.quality.reduce((a, q) => a + q.questions, 0)).toBe(total);
    expect(report.quality.reduce((a, q) => a + q.answeredByAi, 0)).toBe(
      expected.days.reduce((a, d) => a + d.a, 0),
    );
    expect(report.quality.reduce((a, q) => a + q.ratingsUp, 0)).toBe(
      expected.days.reduce((a, d) => a + d.up, 0),
    );
    expect(report.quality.reduce((a, q) => a + q.ratingsDown, 0)).toBe(
      expected.days.reduce((a, d) => a + d.down, 0),
    );
    expect(report.topics.reduce((a, t) => a + t.questions, 0)).toBe(total);

    // A regroup from scratch drops the topics' days and rebuilds them.
    await groupNewQuestions(db(), c.creatorId, { ...keywordEmbedder, id: 'keywords:other' });
    await refreshInsightDays(db(), c.creatorId);
    expect(await kept(c.creatorId)).toEqual(await recount(c.creatorId));
  });

  it('counts a fan once across gaps merged under one topic', async () => {
    const c = await seedCreator(db());
    const [ann, ben] = await Promise.all(['Ann', 'Ben'].map((name) => seedFan(db(), c.creatorId, { name })));
    const gap = async (fan: typeof ann, body: string) => {
      const id = await seedQuestion(db(), fan!, body);
      await storeAiAnswer(db(), {
        questionId: id,
        creatorId: c.creatorId,
        body: 'Not sure.',
        sources: [],
        gap: true,
        now: new Date(),
      });
    };
    // Two gap groups by their words (too different for the gaps' own grouping), one topic by key words.
    await gap(ann, 'Which oven do you bake sourdough in?');
    await gap(ann, 'oven brand for sourdough at home kitchen');
    await gap(ben, 'Which oven do you bake sourdough in?');
    await groupNewQuestions(db(), c.creatorId, { ...keywordEmbedder, similarity: 0.3 });
    // Two gap groups, Ann in both: the merged row has two fans, not three.
    expect((await openKnowledgeGaps(db(), c.creatorId)).map((g) => g.fans).sort()).toEqual([1, 2]);
    const rows = await gapRows(db(), c.creatorId, new Date(Date.now() - DAY), new Date(Date.now() + 1000));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ questions: 3, fans: 2 });
  });
});
