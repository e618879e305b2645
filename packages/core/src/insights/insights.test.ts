import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedFan, seedQuestion } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestContent, digestMail } from '../alerts/digest.ts';
import { storeAiAnswer } from '../conversations/store-ai-answer.ts';
import { insightsReport } from './report.ts';
import { groupNewQuestions, keywordEmbedder, type TopicEmbedder, ungroupedQuestions } from './topics.ts';

/** Insights' grouping and numbers on a seeded creator, with the key-word vectors (no embedder configured). */
describe('insights (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 10));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  it('groups a known mix incrementally, names groups by their key words, and the digest lists the same groups', async () => {
    const c = await seedCreator(db());
    const [ann, ben, cy] = await Promise.all(
      ['Ann', 'Ben', 'Cy'].map((name) => seedFan(db(), c.creatorId, { name })),
    );
    const ask = async (fan: typeof ann, body: string, gap = false) => {
      const id = await seedQuestion(db(), fan!, body);
      await storeAiAnswer(db(), {
        questionId: id,
        creatorId: c.creatorId,
        body: 'An answer.',
        sources: [],
        gap,
        now: new Date(),
      });
      return id;
    };
    await ask(ann, 'How often should I feed my sourdough starter?');
    await ask(ben, 'Feeding schedule for a sourdough starter');
    await ask(cy, 'sourdough starter feeding in winter');
    await ask(ann, 'Which oven do you bake in?', true);
    await ask(ben, 'What oven do you bake with?', true);
    expect(await ungroupedQuestions(db(), c.creatorId)).toBe(5);

    const embedded: string[] = [];
    const counting: TopicEmbedder = {
      ...keywordEmbedder,
      embed: (texts) => {
        embedded.push(...texts);
        return keywordEmbedder.embed(texts);
      },
    };
    expect(await groupNewQuestions(db(), c.creatorId, counting)).toBe(5);
    expect(await ungroupedQuestions(db(), c.creatorId)).toBe(0);
    // Incremental: a new question is the only one embedded next time, and joins its group.
    await ask(cy, 'Is my sourdough starter dead if it does not rise after feeding?');
    expect(await groupNewQuestions(db(), c.creatorId, counting)).toBe(1);
    expect(embedded).toHaveLength(6);

    const report = await insightsReport(db(), c.creatorId, 30, new Date(Date.now() + 1000));
    expect(report.topics.map((t) => [t.label, t.questions])).toEqual([
      ['Sourdough, starter', 4],
      ['Bake, oven', 2],
    ]);
    expect(report.topics[0]).toMatchObject({ previous: 0, answeredByAi: 4, handedOver: 0 });
    expect(report.topics[0]!.examples[0]!.question).toBe(
      'Is my sourdough starter dead if it does not rise after feeding?',
    );
    // What to make next: the oven gaps, one group of two fans, under its topic.
    expect(report.gaps).toEqual([
      expect.objectContaining({
        topic: 'Bake, oven',
        fans: 2,
        questions: 2,
        question: 'What oven do you bake with?',
      }),
    ]);
    expect(report.quality.reduce((a, q) => a + q.questions, 0)).toBe(6);
    expect(report.funnel.reduce((a, f) => a + f.opened, 0)).toBe(3);
    expect(report.bucket).toBe('week');

    // The digest's topics are the same groups, and it links to Insights.
    const content = await digestContent(
      db(),
      c.creatorId,
      new Date(Date.now() - 86_400_000),
      new Date(Date.now() + 1000),
    );
    expect(content.topTopics).toEqual([
      { topic: 'Sourdough, starter', questions: 4 },
      { topic: 'Bake, oven', questions: 2 },
    ]);
    const mail = digestMail(content, { username: 'baker', name: 'Baker' }, 'daily', 'https://fp.example');
    expect(mail.text).toContain('- Sourdough, starter (4 questions)');
    expect(mail.text).toContain('https://fp.example/admin/baker?tab=insights');

    // Another embedder regroups from scratch.
    const other: TopicEmbedder = { ...keywordEmbedder, id: 'keywords:other' };
    expect(await groupNewQuestions(db(), c.creatorId, other)).toBe(6);
    const again = await insightsReport(db(), c.creatorId, 7, new Date(Date.now() + 1000));
    expect(again.topics.map((t) => t.questions)).toEqual([4, 2]);
    expect(again.bucket).toBe('day');
  });

  it('merges two groups once their centroids drift nearer than the threshold (not before), moving their questions and counts', async () => {
    const c = await seedCreator(db());
    const fan = await seedFan(db(), c.creatorId, { name: 'Ann' });
    // Two-dimensional vectors by the question's first word: "east" [1, 0], "north" [0, 1], "nne" and
    // "ene" in between, nearer north than east (each joins north and pulls it towards east).
    const vectors: Record<string, number[]> = {
      east: [1, 0],
      north: [0, 1],
      nne: [0.6, 0.8],
      ene: [0.8, 0.6],
    };
    const plane: TopicEmbedder = {
      id: 'test:plane',
      similarity: 0.5,
      embed: async (texts) => texts.map((t) => vectors[t.split(' ')[0]!]!),
    };
    const topics = () =>
      db()
        .selectFrom('question_topics')
        .select(['id', 'size'])
        .where('creator_id', '=', c.creatorId)
        .orderBy('id')
        .execute();
    await seedQuestion(db(), fan, 'east wind forecast');
    await seedQuestion(db(), fan, 'east coast tour');
    await seedQuestion(db(), fan, 'north pole gifts');
    expect(await groupNewQuestions(db(), c.creatorId, plane)).toBe(3);
    expect((await topics()).map((t) => t.size)).toEqual([2, 1]);
    // North drifts: after nne, ene, ene its centroid is ~[0.58, 0.81] (cosine 0.58 with east).
    await seedQuestion(db(), fan, 'nne breeze');
    expect(await groupNewQuestions(db(), c.creatorId, plane)).toBe(1);
    expect((await topics()).map((t) => t.size)).toEqual([2, 2]);
    await seedQuestion(db(), fan, 'ene breeze');
    await seedQuestion(db(), fan, 'ene gust');
    expect(await groupNewQuestions(db(), c.creatorId, plane)).toBe(2);
    const after = await topics();
    expect(after).toHaveLength(1);
    expect(after[0]!.size).toBe(6);
    const members = await db()
      .selectFrom('question_topic_members')
      .select('topic_id')
      .where('creator_id', '=', c.creatorId)
      .execute();
    expect(members.map((m) => String(m.topic_id))).toEqual(Array(6).fill(String(after[0]!.id)));
    // The report's daily counts follow the move.
    const report = await insightsReport(db(), c.creatorId, 7, new Date(Date.now() + 1000));
    expect(report.topics.map((t) => t.questions)).toEqual([6]);
  });
});
