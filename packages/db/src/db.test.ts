import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from './connection.ts';
import { migrateToLatest } from './migrate.ts';
import { createTestDatabase } from './testing.ts';

const testUrl = process.env.TEST_DATABASE_URL;
const targets: [string, () => Promise<DbHandle & { dispose: () => Promise<void> }>][] = [
  [
    'pglite',
    async () => {
      const handle = createDb({ dataDir: 'memory://' });
      return { ...handle, dispose: handle.close };
    },
  ],
];
if (testUrl) {
  targets.push([
    'postgres',
    async () => {
      const fresh = await createTestDatabase(testUrl);
      const handle = createDb({ databaseUrl: fresh.url });
      return {
        ...handle,
        dispose: async () => {
          await handle.close();
          await fresh.drop();
        },
      };
    },
  ]);
}

describe.each(targets)('data model on %s', (kind, make) => {
  let handle: DbHandle & { dispose: () => Promise<void> };
  beforeAll(async () => {
    handle = await make();
    await migrateToLatest(handle.db);
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it('runs every migration and is idempotent on a second run', async () => {
    const again = await migrateToLatest(handle.db);
    expect(again.results).toEqual([]);
  });

  it('enforces unique usernames case-insensitively', async () => {
    const { db } = handle;
    await db
      .insertInto('creators')
      .values({ google_sub: 's1', email: 'a@x.io', name: 'A', username: 'Alice', description: '' })
      .execute();
    await expect(
      db
        .insertInto('creators')
        .values({ google_sub: 's2', email: 'b@x.io', name: 'B', username: 'alice', description: '' })
        .execute(),
    ).rejects.toThrow();
  });

  it('stores a creator with SPEC defaults and cascades deletes to everything they own', async () => {
    const { db } = handle;
    const creator = await db
      .insertInto('creators')
      .values({ google_sub: 's3', email: 'c@x.io', name: 'C', username: 'carol', description: '' })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(creator.status_text).toBe('Offline - AI responding');
    expect(creator.is_online).toBe(false);
    expect(creator.onboarding_complete).toBe(false);
    const bot = await db
      .insertInto('chatbots')
      .values({
        creator_id: creator.id,
        name: 'Bot',
        instructions: 'x',
        model: 'gpt-4o-mini',
        temperature: 0.7,
        initial_messages: '[]',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(bot.temperature).toBeCloseTo(0.7);
    expect(bot.initial_messages).toEqual([]);
    const fan = await db
      .insertInto('fans')
      .values({ creator_id: creator.id, fan_key: 'mobile_fan_1' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const question = await db
      .insertInto('messages')
      .values({ creator_id: creator.id, fan_id: fan.id, sender: 'fan', body: 'hi', status: 'pending' })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(typeof question.id).toBe('string');
    await db.deleteFrom('creators').where('id', '=', creator.id).execute();
    const left = await db.selectFrom('messages').select('id').where('creator_id', '=', creator.id).execute();
    expect(left).toEqual([]);
  });

  it('allows one AI reply per question and one charge per AI answer', async () => {
    const { db } = handle;
    const creator = await db
      .insertInto('creators')
      .values({ google_sub: 's4', email: 'd@x.io', name: 'D', username: 'dave', description: '' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const q = await db
      .insertInto('messages')
      .values({ creator_id: creator.id, sender: 'fan', body: 'q', status: 'pending' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const reply = { creator_id: creator.id, sender: 'Creatorai' as const, body: 'a', reply_to: q.id };
    await db.insertInto('messages').values(reply).execute();
    await expect(db.insertInto('messages').values(reply).execute()).rejects.toThrow();
    const charge = { creator_id: creator.id, delta: -1, reason: 'ai_answer' as const, message_id: q.id };
    await db.insertInto('credit_ledger').values(charge).execute();
    await expect(db.insertInto('credit_ledger').values(charge).execute()).rejects.toThrow();
  });

  it('keeps one fan message per Idempotency-Key and fan, and any number without a key', async () => {
    const { db } = handle;
    const creator = await db
      .insertInto('creators')
      .values({ google_sub: 's6', email: 'f@x.io', name: 'F', username: 'fred', description: '' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const [fan1, fan2] = await db
      .insertInto('fans')
      .values([
        { creator_id: creator.id, fan_key: 'mobile_fan_a' },
        { creator_id: creator.id, fan_key: 'mobile_fan_b' },
      ])
      .returning('id')
      .execute();
    const ask = (fanId: string, clientKey: string | null) => ({
      creator_id: creator.id,
      fan_id: fanId,
      sender: 'fan' as const,
      body: 'q',
      status: 'pending' as const,
      client_key: clientKey,
    });
    await db.insertInto('messages').values(ask(fan1!.id, 'key-1')).execute();
    await expect(db.insertInto('messages').values(ask(fan1!.id, 'key-1')).execute()).rejects.toThrow();
    // Another fan may use the same key; messages without one are not limited.
    await db.insertInto('messages').values(ask(fan2!.id, 'key-1')).execute();
    await db.insertInto('messages').values(ask(fan1!.id, null)).execute();
    await db.insertInto('messages').values(ask(fan1!.id, null)).execute();
    await expect(
      db
        .insertInto('messages')
        .values(ask(fan1!.id, 'k'.repeat(101)))
        .execute(),
    ).rejects.toThrow();
    const count = await db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('creator_id', '=', creator.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(4);
  });

  it('indexes chunks for full-text search', async () => {
    const { db } = handle;
    const creator = await db
      .insertInto('creators')
      .values({ google_sub: 's5', email: 'e@x.io', name: 'E', username: 'erin', description: '' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const bot = await db
      .insertInto('chatbots')
      .values({
        creator_id: creator.id,
        name: 'B',
        instructions: '',
        model: 'gpt-4o',
        temperature: 0.5,
        initial_messages: '[]',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const item = await db
      .insertInto('knowledge_items')
      .values({ chatbot_id: bot.id, type: 'url', url: 'https://e.io' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('chunks')
      .values([
        {
          knowledge_item_id: item.id,
          chatbot_id: bot.id,
          ordinal: 0,
          content: 'Sourdough needs a lively starter.',
          metadata: '{}',
        },
        {
          knowledge_item_id: item.id,
          chatbot_id: bot.id,
          ordinal: 1,
          content: 'Deadlifts build the posterior chain.',
          metadata: '{}',
        },
      ])
      .execute();
    const hits = await db
      .selectFrom('chunks')
      .select('content')
      .where(sql<boolean>`tsv @@ plainto_tsquery('english', ${'starter for sourdough'})`)
      .execute();
    expect(hits.map((h) => h.content)).toEqual(['Sourdough needs a lively starter.']);
  });

  it('has the vector column where the extension exists', async () => {
    expect(await handle.hasVector()).toBe(kind === 'pglite');
  });
});
