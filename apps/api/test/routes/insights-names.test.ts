import { groupNewQuestions, keywordEmbedder } from '@fanpilot/core';
import type { DbHandle } from '@fanpilot/db';
import {
  type FakeOpenAI,
  openTestDb,
  seedCreator,
  seedFan,
  seedQuestion,
  startFakeOpenAI,
} from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicNamer } from '../../src/routes/insights/index.ts';

/**
 * Topic names (record 0081): the configured model names a group of 3+ questions; a reply that is not
 * a short name (overlong, markup, empty) or a failed call leaves the group its key words.
 */
describe('insights topic names by the model', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  let openai: FakeOpenAI;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 10));
    openai = await startFakeOpenAI();
  });
  afterAll(async () => {
    await openai?.close();
    await close?.();
  });

  it('names groups of 3+ questions with the model, and falls back to key words on malformed or overlong replies', async () => {
    const db = handle.db;
    const c = await seedCreator(db);
    const fan = await seedFan(db, c.creatorId, { name: 'Ann' });
    const groups = {
      sourdough: [
        'How do I feed my sourdough starter?',
        'sourdough starter feeding',
        'my sourdough starter smells',
      ],
      oven: ['Which oven do you bake in?', 'What oven do you bake with?', 'oven to bake bread'],
      tour: ['When is the tour in Berlin?', 'tour dates Berlin please', 'Berlin tour tickets'],
      guitar: ['What guitar strings do you use?', 'guitar strings brand', 'guitar strings gauge'],
      merch: ['Do you ship merch abroad?'],
    };
    for (const list of Object.values(groups)) for (const q of list) await seedQuestion(db, fan, q);
    openai.answerWith((r) => {
      const asked = JSON.stringify(r.messages);
      if (asked.includes('sourdough')) return '"Sourdough starter care."';
      if (asked.includes('oven'))
        return 'This group of questions is about which oven the creator uses to bake bread at home and why';
      if (asked.includes('tour')) return '```json\n{"name": "Tour dates"}\n```';
      return '';
    });
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: openai.baseUrl };
    const namer = topicNamer(env, 'gpt-4o-mini');
    expect(await groupNewQuestions(db, c.creatorId, keywordEmbedder, { namer })).toBe(13);

    const topics = await db
      .selectFrom('question_topics')
      .select(['label', 'named_by', 'size'])
      .where('creator_id', '=', c.creatorId)
      .orderBy('label')
      .execute();
    const byLabel = Object.fromEntries(topics.map((t) => [t.label, [t.named_by, t.size]]));
    expect(byLabel).toEqual({
      'Sourdough starter care': ['model', 3],
      // Overlong, code-fenced JSON and empty replies: the key words stay.
      'Bake, oven': ['keywords', 3],
      'Berlin, tour': ['keywords', 3],
      'Guitar, string': ['keywords', 3],
      // One question: never sent to the model.
      'Abroad, merch': ['keywords', 1],
    });
    // The model was asked for the four groups of three, each with its own examples.
    expect(openai.requests).toHaveLength(4);
    expect(openai.requests.every((r) => r.model === 'gpt-4o-mini')).toBe(true);
    expect(JSON.stringify(openai.requests.map((r) => r.messages))).not.toContain('merch');
  });
});
