import { createTestDatabase } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle, PGLITE_SHARED_BUFFERS } from './connection.ts';
import { migrateToLatest } from './migrate.ts';

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

  it('stores a creator with the product’s defaults and cascades deletes to everything they own', async () => {
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

  it("keeps long chunks' windows with their chunk and chatbot: a vector column only with pgvector, deleted with the chunk", async () => {
    const { db } = handle;
    const creator = await db
      .insertInto('creators')
      .values({ google_sub: 's5w', email: 'w@x.io', name: 'W', username: 'wendy', description: '' })
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
      .values({ chatbot_id: bot.id, type: 'url', url: 'https://w.io' })
      .returning(['id', 'windowed'])
      .executeTakeFirstOrThrow();
    expect(item.windowed).toBe(false);
    const chunk = await db
      .insertInto('chunks')
      .values({
        knowledge_item_id: item.id,
        chatbot_id: bot.id,
        ordinal: 0,
        content: 'A. B.',
        metadata: '{}',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('chunk_windows')
      .values([0, 1].map((ordinal) => ({ chunk_id: chunk.id, chatbot_id: bot.id, ordinal })))
      .execute();
    const column = await sql<{ n: number }>`select count(*)::int as n from information_schema.columns
      where table_name = 'chunk_windows' and column_name = 'embedding'`.execute(db);
    // The same as chunks' embedding column: present where pgvector is (PGlite), absent on plain PostgreSQL.
    expect(column.rows[0]?.n === 1).toBe(await handle.hasVector());
    await db.deleteFrom('chunks').where('id', '=', chunk.id).execute();
    const left = await db
      .selectFrom('chunk_windows')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('chatbot_id', '=', bot.id)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });

  it("keeps each fan's message counts, waiting questions and last activity, whoever writes", async () => {
    const { db } = handle;
    const creator = await db
      .insertInto('creators')
      .values({ google_sub: 's9', email: 'c@x.io', name: 'C', username: 'counter', description: '' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const [a, b] = await db
      .insertInto('fans')
      .values([
        { creator_id: creator.id, fan_key: 'count_a' },
        { creator_id: creator.id, fan_key: 'count_b' },
      ])
      .returning(['id', 'created_at'])
      .execute();
    const row = (id: string) =>
      db
        .selectFrom('fans')
        .select([
          'message_count',
          'pending_count',
          'last_message_at',
          'last_fan_message_at',
          'last_activity_at',
        ])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    expect(await row(a!.id)).toMatchObject({ message_count: 0, pending_count: 0, last_message_at: null });
    expect(new Date((await row(a!.id)).last_activity_at).getTime()).toBe(new Date(a!.created_at).getTime());

    const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 12, 0, s));
    const [q1, q2] = await db
      .insertInto('messages')
      .values([
        {
          creator_id: creator.id,
          fan_id: a!.id,
          sender: 'fan',
          body: 'q1',
          status: 'pending',
          created_at: at(1),
        },
        {
          creator_id: creator.id,
          fan_id: a!.id,
          sender: 'fan',
          body: 'q2',
          status: 'pending',
          created_at: at(2),
        },
      ] as never)
      .returning('id')
      .execute();
    await db
      .insertInto('messages')
      .values({
        creator_id: creator.id,
        fan_id: a!.id,
        sender: 'Creatorai',
        body: 'r1',
        created_at: at(3),
      } as never)
      .execute();
    await db.updateTable('messages').set({ status: 'answered' }).where('id', '=', q1!.id).execute();
    // An update that does not change the status leaves the counts alone.
    await db.updateTable('messages').set({ status: 'answered' }).where('id', '=', q1!.id).execute();
    let counts = await row(a!.id);
    expect(counts).toMatchObject({ message_count: 3, pending_count: 1 });
    expect(new Date(counts.last_message_at!).toISOString()).toBe(at(3).toISOString());
    expect(new Date(counts.last_fan_message_at!).toISOString()).toBe(at(2).toISOString());
    expect(new Date(counts.last_activity_at).toISOString()).toBe(at(3).toISOString());

    await db.deleteFrom('messages').where('id', '=', q2!.id).execute();
    counts = await row(a!.id);
    expect(counts).toMatchObject({ message_count: 2, pending_count: 0 });
    expect(await row(b!.id)).toMatchObject({ message_count: 0, pending_count: 0 });
    // Deleting the fan takes its messages with it, without an error from the counters.
    await db.deleteFrom('fans').where('id', '=', a!.id).execute();
    expect(
      await db.selectFrom('fans').select('id').where('id', '=', a!.id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('keeps the credit totals equal to the ledger, which is append-only', async () => {
    const { db } = handle;
    const creator = await db
      .insertInto('creators')
      .values({ google_sub: 's10', email: 'l@x.io', name: 'L', username: 'ledger', description: '' })
      .returningAll()
      .executeTakeFirstOrThrow();
    await db
      .insertInto('credit_ledger')
      .values([
        { creator_id: creator.id, delta: 1000, reason: 'free_grant' },
        { creator_id: creator.id, delta: -1, reason: 'ai_answer' },
        { creator_id: creator.id, delta: -1, reason: 'ai_answer' },
        { creator_id: creator.id, delta: 10000, reason: 'purchase' },
        { creator_id: creator.id, delta: -8, reason: 'adjustment' },
      ])
      .execute();
    const totals = await db
      .selectFrom('credit_totals')
      .selectAll()
      .where('creator_id', '=', creator.id)
      .executeTakeFirstOrThrow();
    expect([totals.balance, totals.used, totals.free, totals.purchased].map(Number)).toEqual([
      10990, 2, 1000, 10000,
    ]);
    const sum = await db
      .selectFrom('credit_ledger')
      .select(sql<string>`sum(delta)`.as('s'))
      .where('creator_id', '=', creator.id)
      .executeTakeFirstOrThrow();
    expect(Number(sum.s)).toBe(Number(totals.balance));
    await expect(
      db.updateTable('credit_ledger').set({ delta: 5 }).where('creator_id', '=', creator.id).execute(),
    ).rejects.toThrow(/not changed/);
    // A deleted creator takes its ledger and totals with it.
    await db.deleteFrom('creators').where('id', '=', creator.id).execute();
    expect(
      await db
        .selectFrom('credit_totals')
        .select('creator_id')
        .where('creator_id', '=', creator.id)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('announces each committed change with a new version (the change feed), never a rolled-back one', async () => {
    const { db } = handle;
    const heard: string[] = [];
    const stop = await handle.listen('fp_changes', (payload) => heard.push(payload));
    try {
      const creator = await db
        .insertInto('creators')
        .values({ google_sub: 's11', email: 'n@x.io', name: 'N', username: 'notes', description: '' })
        .returningAll()
        .executeTakeFirstOrThrow();
      const fan = await db
        .insertInto('fans')
        .values({ creator_id: creator.id, fan_key: 'feed_fan' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const waitFor = async (match: (p: string) => boolean) => {
        for (let i = 0; i < 100 && !heard.some(match); i++) await new Promise((r) => setTimeout(r, 20));
        return heard.filter(match);
      };
      expect(await waitFor((p) => p.startsWith(`f:${fan.id}:`))).toHaveLength(1);
      heard.length = 0;
      await db
        .insertInto('messages')
        .values({ creator_id: creator.id, fan_id: fan.id, sender: 'fan', body: 'hi', status: 'pending' })
        .execute();
      const inbox = await waitFor((p) => p.startsWith(`c:${creator.id}:`) && p.includes(':messages:'));
      expect(inbox[0]).toMatch(new RegExp(`^c:${creator.id}:\\d+:messages:${fan.id}$`));
      const version = async (scope: string, id: string) =>
        (
          await db
            .selectFrom('change_versions')
            .select('version')
            .where('scope', '=', scope as never)
            .where('id', '=', id as never)
            .executeTakeFirstOrThrow()
        ).version;
      const before = await version('f', fan.id);
      await db
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('messages')
            .values({
              creator_id: creator.id,
              fan_id: fan.id,
              sender: 'fan',
              body: 'lost',
              status: 'pending',
            })
            .execute();
          throw new Error('rolled back');
        })
        .catch(() => {});
      expect(await version('f', fan.id)).toBe(before);
      await db.updateTable('creators').set({ is_online: true }).where('id', '=', creator.id).execute();
      expect(await waitFor((p) => p.startsWith(`p:${creator.id}:`))).not.toHaveLength(0);

      // A message moves the fan row's counters: announced as the message alone, not as a change of
      // the fan row (that would make the fan's streams check their right again). Notices arrive in
      // commit order, so the creator's change after it closes the window.
      heard.length = 0;
      await db
        .insertInto('messages')
        .values({ creator_id: creator.id, fan_id: fan.id, sender: 'fan', body: 'again', status: 'pending' })
        .execute();
      await db.updateTable('creators').set({ is_online: false }).where('id', '=', creator.id).execute();
      await waitFor((p) => p.startsWith(`p:${creator.id}:`));
      expect(heard.filter((p) => p.startsWith(`f:${fan.id}:`)).map((p) => p.split(':')[3])).toEqual([
        'messages',
      ]);
      // Anything else of the fan row (its browser, its name) is announced as before.
      heard.length = 0;
      await db.updateTable('fans').set({ cookie_hash: 'another-browser' }).where('id', '=', fan.id).execute();
      expect(await waitFor((p) => p.startsWith(`f:${fan.id}:`) && p.includes(':fans'))).toHaveLength(1);
    } finally {
      await stop();
    }
  });

  it('has the vector column where the extension exists', async () => {
    expect(await handle.hasVector()).toBe(kind === 'pglite');
  });
});

describe('embedded PGlite', () => {
  it('starts with a buffer cache of PGLITE_SHARED_BUFFERS and its own start-up settings', async () => {
    const handle = createDb({ dataDir: 'memory://' });
    try {
      const r = await sql<{ shared_buffers: string; search_path: string }>`
        select current_setting('shared_buffers') as shared_buffers,
          current_setting('search_path') as search_path`.execute(handle.db);
      expect(r.rows[0]).toEqual({ shared_buffers: PGLITE_SHARED_BUFFERS, search_path: 'public' });
    } finally {
      await handle.close();
    }
  });
});
