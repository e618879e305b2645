import type { ConversationListFilter } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedFan, seedQuestion } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeAiAnswer } from './conversations/store-ai-answer.ts';
import { DomainError } from './errors.ts';
import { inboxRepository, startOfToday } from './inbox.ts';

// The creator's inbox, in core where its rules are: counts and pages hold the creator's own fans
// only, the filters and the search say what they name, and a page link is followed or refused.

async function refusal(call: Promise<unknown>): Promise<DomainError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe('the inbox (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;
  const inbox = () => inboxRepository(db());
  const all: { filter: ConversationListFilter; search: string; limit: number } = {
    filter: 'all',
    search: '',
    limit: 50,
  };

  /** A creator with two fans: Ada waiting on one question, Bob answered by the AI. */
  const seed = async () => {
    const creator = await seedCreator(db());
    const ada = await seedFan(db(), creator.creatorId, { name: 'Ada 100%' });
    await seedQuestion(db(), ada, 'Are you open today?');
    const bob = await seedFan(db(), creator.creatorId, { name: 'Bob' });
    const asked = await seedQuestion(db(), bob, 'Do you sell rye?');
    const answer = await storeAiAnswer(db(), {
      questionId: asked,
      creatorId: creator.creatorId,
      body: 'Yes.',
      sources: [],
      gap: false,
      now: new Date(),
    });
    expect(answer.outcome).toBe('answered');
    return { creator, ada, bob };
  };

  it('counts the creator’s own fans, waiting questions and today’s replies, and no one else’s', async () => {
    const { creator } = await seed();
    const other = await seedCreator(db());
    await other.ask(3);
    const today = startOfToday('UTC');
    expect(await inbox().counts(creator.creatorId, today)).toEqual({
      fans: 2,
      activeFansToday: 2,
      pendingQuestions: 1,
      waitingFans: 1,
      todayResponses: 1,
      todayAiResponses: 1,
    });
    expect(await inbox().counts(other.creatorId, today)).toMatchObject({
      fans: 3,
      pendingQuestions: 3,
      todayResponses: 0,
    });
  });

  it('lists the creator’s conversations only, filtered by waiting or answered, and searched by name literally', async () => {
    const { creator } = await seed();
    await (await seedCreator(db())).ask(2);
    const names = async (options: Partial<typeof all>) =>
      (await inbox().conversations(creator.creatorId, { ...all, ...options })).rows.map((r) => r.name);
    expect((await names({})).sort()).toEqual(['Ada 100%', 'Bob']);
    expect(await names({ filter: 'waiting' })).toEqual(['Ada 100%']);
    expect(await names({ filter: 'answered' })).toEqual(['Bob']);
    // A search is a substring, with % and _ meant literally.
    expect(await names({ search: '100%' })).toEqual(['Ada 100%']);
    expect(await names({ search: '%' })).toEqual(['Ada 100%']);
    expect(await names({ search: 'b_b' })).toEqual([]);
    const [ada] = (await inbox().conversations(creator.creatorId, { ...all, filter: 'waiting' })).rows;
    expect(ada?.newestPending?.body).toBe('Are you open today?');
    expect(ada?.latestReply).toBeNull();
  });

  it('pages through conversations and messages by cursor, each once, and refuses a cursor it did not make', async () => {
    const creator = await seedCreator(db());
    await creator.ask(5);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await inbox().conversations(creator.creatorId, {
        ...all,
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.rows.map((r) => r.fanKey));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    for (const bad of ['garbage', Buffer.from('2026-01-01|x').toString('base64url')]) {
      const err = await refusal(inbox().conversations(creator.creatorId, { ...all, cursor: bad }));
      expect([err.reason, err.code]).toEqual(['invalid', 'bad_cursor']);
      const msgErr = await refusal(inbox().conversationPage(creator.creatorId, { before: bad, limit: 2 }));
      expect(msgErr.code).toBe('bad_cursor');
    }

    const fan = await seedFan(db(), creator.creatorId);
    for (const body of ['one?', 'two?', 'three?']) await seedQuestion(db(), fan, body);
    const newest = await inbox().conversationPage(fan.id, { limit: 2 });
    expect(newest.messages.map((m) => m.body)).toEqual(['two?', 'three?']);
    const older = await inbox().conversationPage(fan.id, { limit: 2, before: newest.olderCursor! });
    expect(older.messages.map((m) => m.body)).toEqual(['one?']);
    expect(older.olderCursor).toBeNull();
  });

  it('today begins at the creator’s own midnight', () => {
    const now = new Date('2026-07-01T03:30:00Z');
    expect(startOfToday('UTC', now).toISOString()).toBe('2026-07-01T00:00:00.000Z');
    // 03:30 UTC is still 23:30 of June 30 in New York (UTC−4 in summer).
    expect(startOfToday('America/New_York', now).toISOString()).toBe('2026-06-30T04:00:00.000Z');
    expect(startOfToday('Asia/Tokyo', now).toISOString()).toBe('2026-06-30T15:00:00.000Z');
  });
});
