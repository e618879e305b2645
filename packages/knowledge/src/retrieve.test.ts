import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import { seedChatbot } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieve } from './retrieve.ts';

describe('retrieve (full-text)', () => {
  let h: DbHandle;
  let chatbotId: string;
  beforeAll(async () => {
    h = createDb({ dataDir: 'memory://' });
    await migrateToLatest(h.db);
    chatbotId = await seedChatbot(h.db);
    const ready = await h.db
      .insertInto('knowledge_items')
      .values({
        chatbot_id: chatbotId,
        type: 'url',
        url: 'https://coach.example/bread',
        title: 'Bread basics',
        status: 'completed',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pending = await h.db
      .insertInto('knowledge_items')
      .values({ chatbot_id: chatbotId, type: 'url', url: 'https://coach.example/draft', status: 'pending' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('chunks')
      .values([
        {
          knowledge_item_id: ready.id,
          chatbot_id: chatbotId,
          ordinal: 0,
          content: 'Feed your sourdough starter twice a day.',
          metadata: '{}',
        },
        {
          knowledge_item_id: ready.id,
          chatbot_id: chatbotId,
          ordinal: 1,
          content: 'Bake at 250 degrees with steam.',
          metadata: '{}',
        },
        {
          knowledge_item_id: pending.id,
          chatbot_id: chatbotId,
          ordinal: 0,
          content: 'Sourdough draft notes.',
          metadata: '{}',
        },
      ])
      .execute();
  });
  afterAll(async () => {
    await h.close();
  });

  it('finds the chunk that holds the answer, with its source, from ready items only', async () => {
    const hits = await retrieve(h.db, {
      chatbotId,
      question: 'How often should I feed my sourdough starter?',
    });
    expect(hits[0]).toMatchObject({
      content: 'Feed your sourdough starter twice a day.',
      title: 'Bread basics',
      source: 'https://coach.example/bread',
    });
    expect(hits.map((x) => x.content)).not.toContain('Sourdough draft notes.');
  });

  it('finds nothing for an unrelated or empty question', async () => {
    expect(await retrieve(h.db, { chatbotId, question: 'quantum chromodynamics' })).toEqual([]);
    expect(await retrieve(h.db, { chatbotId, question: '  ' })).toEqual([]);
  });
});
