import { randomUUID } from 'node:crypto';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { ask } from './ask.ts';
import { claimFan } from './claim-fan.ts';
import { readCreatorChatlog, readFanChatlog, readFanConversation } from './read-chatlog.ts';

// The chat-log reads (issue 35): the rights the route composed before, now in the use case.

describe('chat-log reads (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
  });
  afterAll(async () => {
    await close?.();
  });

  const conversation = async () => {
    const { creatorId } = await seedCreator(handle.db);
    const creator = await handle.db
      .selectFrom('creators')
      .selectAll()
      .where('id', '=', creatorId)
      .executeTakeFirstOrThrow();
    const cookieHash = `browser-${randomUUID()}`;
    const fanKey = `fan_${randomUUID().slice(0, 8)}`;
    const fan = await claimFan(
      { db: handle.db },
      {
        creatorId,
        fanKey,
        fanName: 'Ann',
        browser: { cookieHash, bindCookie: () => cookieHash },
        beforeNewFan: async () => {},
      },
    );
    const storage = { put: async () => {}, remove: async () => {} };
    await ask(
      { db: handle.db, storage },
      { creatorId, fan, text: 'Open on Sunday?', fanName: 'Ann', attachment: null },
    );
    return { creator, cookieHash, fanKey };
  };

  it('gives the browser that holds the conversation its messages and the creator they are with', async () => {
    const { creator, cookieHash, fanKey } = await conversation();
    const read = await readFanChatlog({ db: handle.db }, { cookieHash, creatorId: null }, { fanId: fanKey });
    expect(read.messages.map((m) => m.body)).toEqual(['Open on Sunday?']);
    expect(read.creator?.id).toBe(creator.id);
    const named = await readFanChatlog(
      { db: handle.db },
      { cookieHash, creatorId: null },
      { fanId: fanKey, creatorUsername: creator.username! },
    );
    expect(named.messages).toHaveLength(1);
    // The creator reads their own fan's conversation, whatever browser they are in.
    const own = await readFanChatlog(
      { db: handle.db },
      { cookieHash: null, creatorId: creator.id },
      { fanId: fanKey },
    );
    expect(own.messages).toHaveLength(1);
    expect(
      (await readCreatorChatlog({ db: handle.db }, { creatorId: creator.id })).map((m) => m.body),
    ).toEqual(['Open on Sunday?']);
  });

  it('refuses another browser or another creator, and reads an unused fan id as an empty chat', async () => {
    const { creator, fanKey } = await conversation();
    const other = await seedCreator(handle.db);
    for (const who of [
      { cookieHash: 'another-browser', creatorId: null },
      { cookieHash: null, creatorId: other.creatorId },
    ]) {
      const err = await readFanChatlog({ db: handle.db }, who, { fanId: fanKey }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).reason).toBe('forbidden');
    }
    const fresh = await readFanChatlog(
      { db: handle.db },
      { cookieHash: 'new-browser', creatorId: null },
      { fanId: `fan_${randomUUID().slice(0, 8)}` },
    );
    expect(fresh).toMatchObject({ messages: [], creator: undefined });
    const notTheirs = await readFanConversation(
      { db: handle.db },
      { creatorId: other.creatorId },
      { fanId: fanKey },
    ).catch((e: unknown) => e);
    expect((notTheirs as DomainError).reason).toBe('not_found');
    expect(await readCreatorChatlog({ db: handle.db }, { creatorId: other.creatorId })).toEqual([]);
    expect(creator.id).not.toBe(other.creatorId);
  });
});
