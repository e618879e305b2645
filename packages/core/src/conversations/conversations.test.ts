import { randomUUID } from 'node:crypto';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { conversationBindings, mayActAsFan } from '../rights.ts';
import { answerAsCreator } from './answer-as-creator.ts';
import { ask } from './ask.ts';
import { claimFan } from './claim-fan.ts';
import { deleteConversation } from './delete-conversation.ts';
import { makeTransferLink } from './make-transfer-link.ts';
import { moveToAnotherBrowser } from './move-to-another-browser.ts';
import type { FileStore } from './ports.ts';
import { sendToFan } from './send-to-fan.ts';
import { storeAiAnswer } from './store-ai-answer.ts';

// The conversation use cases against a real database: PGlite in memory, and PostgreSQL when
// TEST_DATABASE_URL is set. Each is called as the api calls it, with its ports.

/** An object store in memory: what a use case put and removed. */
function memoryStore(): FileStore & { keys: () => string[] } {
  const objects = new Map<string, Buffer>();
  return {
    put: async (key, body) => {
      objects.set(key, body);
    },
    remove: async (key) => {
      objects.delete(key);
    },
    keys: () => [...objects.keys()],
  };
}

/** A PNG's first bytes: enough for the content check to call it an image. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

/** The DomainError a promise is refused with. */
async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe('conversation use cases', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const opened = await openTestDb(process.env.TEST_DATABASE_URL, 4);
    handle = opened.handle;
    close = opened.close;
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  /** A creator (Offline with a chatbot and credits unless `online`) and one browser's fan of theirs. */
  const seed = async (options: { online?: boolean } = {}) => {
    const tag = randomUUID().slice(0, 8);
    const creator = await db()
      .insertInto('creators')
      .values({
        google_sub: `sub-${tag}`,
        email: `${tag}@example.com`,
        name: 'Bea',
        username: `c-${tag}`,
        description: '',
        onboarding_complete: true,
        is_online: options.online ?? false,
      })
      .returning(['id', 'username'])
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('chatbots')
      .values({
        creator_id: creator.id,
        name: 'Crumb',
        instructions: '',
        model: 'gpt-4o-mini',
        temperature: 0.3,
        initial_messages: '[]',
      })
      .execute();
    await db()
      .insertInto('credit_ledger')
      .values({ creator_id: creator.id, delta: 10, reason: 'adjustment' })
      .execute();
    const storage = memoryStore();
    const cookieHash = `browser-${tag}`;
    const fan = await claimFan(
      { db: db() },
      {
        creatorId: creator.id,
        fanKey: `fan_${tag}`,
        fanName: 'Ann',
        browser: { cookieHash, bindCookie: () => cookieHash },
        beforeNewFan: async () => {},
      },
    );
    const question = async (text: string, clientKey?: string) =>
      ask(
        { db: db(), storage },
        { creatorId: creator.id, fan, text, fanName: 'Ann', attachment: null, clientKey },
      );
    return { creator, fan, storage, cookieHash, question };
  };

  const messagesOf = (fanRowId: string) =>
    db().selectFrom('messages').selectAll().where('fan_id', '=', fanRowId).orderBy('id').execute();

  describe('claim a fan', () => {
    it('binds a new fan id to the asking browser, and refuses the same fan id to another browser', async () => {
      const { creator, fan, cookieHash } = await seed();
      expect(fan.cookie_hash).toBe(cookieHash);
      let newFans = 0;
      const err = await refusal(
        claimFan(
          { db: db() },
          {
            creatorId: creator.id,
            fanKey: fan.fan_key,
            fanName: undefined,
            browser: { cookieHash: 'another-browser', bindCookie: () => 'another-browser' },
            beforeNewFan: async () => {
              newFans++;
            },
          },
        ),
      );
      expect([err.reason, err.code]).toEqual(['forbidden', 'forbidden']);
      expect(newFans).toBe(0);
      const again = await claimFan(
        { db: db() },
        {
          creatorId: creator.id,
          fanKey: fan.fan_key,
          fanName: undefined,
          browser: { cookieHash, bindCookie: () => cookieHash },
          beforeNewFan: async () => {
            newFans++;
          },
        },
      );
      expect(again.id).toBe(fan.id);
      expect(newFans).toBe(0);
    });
  });

  describe('ask', () => {
    it('stores the question pending and forecasts the AI for an Offline creator, with a queue priority', async () => {
      const { fan, question } = await seed();
      const asked = await question('Do you ship to Norway?');
      expect(asked.message.status).toBe('pending');
      expect(asked.message.body).toBe('Do you ship to Norway?');
      expect(asked.aiWillAnswer).toBe(true);
      expect(asked.queueForAi).toEqual({ priority: 1 });
      expect(await messagesOf(fan.id)).toHaveLength(1);
    });

    it('an Online creator: stored, nothing for the AI', async () => {
      const { question } = await seed({ online: true });
      const asked = await question('Hello?');
      expect(asked.aiWillAnswer).toBe(false);
      expect(asked.queueForAi).toBeNull();
    });

    it('a resend with the same Idempotency-Key stores and queues nothing and returns the first question', async () => {
      const { fan, question } = await seed();
      const key = randomUUID();
      const first = await question('Are you open on Sunday?', key);
      const again = await question('Are you open on Sunday?', key);
      expect(again.message.id).toBe(first.message.id);
      expect(again.queueForAi).toBeNull();
      expect(again.aiWillAnswer).toBe(true);
      expect(await messagesOf(fan.id)).toHaveLength(1);
      // Once the AI answered, a resend says so.
      const answered = await storeAiAnswer(db(), {
        questionId: first.message.id,
        creatorId: fan.creator_id,
        body: 'Yes.',
        sources: [],
        gap: false,
        now: new Date(),
      });
      expect(answered.outcome).toBe('answered');
      const late = await question('Are you open on Sunday?', key);
      expect(late.message.status).toBe('answered');
      expect(late.aiWillAnswer).toBe(true);
      expect(await messagesOf(fan.id)).toHaveLength(2);
    });

    it('the same key with a different question is refused (unprocessable, idempotency_key_reused)', async () => {
      const { fan, question } = await seed();
      const key = randomUUID();
      await question('First?', key);
      const err = await refusal(question('Something else?', key));
      expect([err.reason, err.code]).toEqual(['unprocessable', 'idempotency_key_reused']);
      expect(await messagesOf(fan.id)).toHaveLength(1);
    });

    it('a resend with its attachment keeps one file in the store', async () => {
      const { creator, fan, storage } = await seed();
      const key = randomUUID();
      const attachment = { buffer: PNG, mime: 'image/png', fileType: 'image' as const, filename: 'a.png' };
      const input = { creatorId: creator.id, fan, text: 'See?', fanName: 'Ann', attachment, clientKey: key };
      const first = await ask({ db: db(), storage }, input);
      const again = await ask({ db: db(), storage }, input);
      expect(again.message.id).toBe(first.message.id);
      expect(first.message.attachment?.originalFilename).toBe('a.png');
      expect(storage.keys()).toHaveLength(1);
    });

    it('a key older than the window is free again: a new question is stored', async () => {
      const { creator, fan, storage } = await seed();
      const key = randomUUID();
      const input = {
        creatorId: creator.id,
        fan,
        text: 'Hi?',
        fanName: 'Ann',
        attachment: null,
        clientKey: key,
      };
      const first = await ask({ db: db(), storage }, input);
      const later = new Date(Date.now() + 25 * 60 * 60 * 1000);
      const second = await ask({ db: db(), storage, clock: () => later }, input);
      expect(second.message.id).not.toBe(first.message.id);
      expect(await messagesOf(fan.id)).toHaveLength(2);
    });
  });

  describe('answer as creator', () => {
    it('stores the reply and marks the question answered once, at the clock’s time; a second answer is a conflict', async () => {
      const { creator, fan, question } = await seed({ online: true });
      const asked = await question('When is the next drop?');
      const at = new Date('2026-03-01T10:00:00Z');
      const replyId = await answerAsCreator(
        { db: db(), clock: () => at },
        { creatorId: creator.id, messageId: asked.message.id, text: 'Friday.' },
      );
      const err = await refusal(
        answerAsCreator({ db: db() }, { creatorId: creator.id, messageId: asked.message.id, text: 'Again' }),
      );
      expect([err.reason, err.code, err.message]).toEqual([
        'conflict',
        'already_answered',
        'This question has already been answered.',
      ]);
      const rows = await messagesOf(fan.id);
      expect(rows).toHaveLength(2);
      const [q, reply] = rows;
      expect(q?.status).toBe('answered');
      expect(new Date(q!.answered_at!).toISOString()).toBe(at.toISOString());
      expect(String(reply?.id)).toBe(replyId);
      expect(reply?.sender).toBe('creator');
      expect(String(reply?.reply_to)).toBe(asked.message.id);
    });

    it('after the AI answered, the creator’s answer is a conflict, and the other way round (one primitive)', async () => {
      const { creator, fan, question } = await seed();
      const first = await question('One?');
      const ai = await storeAiAnswer(db(), {
        questionId: first.message.id,
        creatorId: creator.id,
        body: 'AI says one.',
        sources: [],
        gap: false,
        now: new Date(),
      });
      expect(ai.outcome).toBe('answered');
      const err = await refusal(
        answerAsCreator({ db: db() }, { creatorId: creator.id, messageId: first.message.id, text: 'Me too' }),
      );
      expect(err.code).toBe('already_answered');

      const second = await question('Two?');
      await answerAsCreator(
        { db: db() },
        { creatorId: creator.id, messageId: second.message.id, text: 'Two.' },
      );
      const late = await storeAiAnswer(db(), {
        questionId: second.message.id,
        creatorId: creator.id,
        body: 'AI says two.',
        sources: [],
        gap: false,
        now: new Date(),
      });
      expect(late).toEqual({ outcome: 'already_answered', replyId: undefined });
      expect((await messagesOf(fan.id)).map((m) => m.sender)).toEqual(['fan', 'Creatorai', 'fan', 'creator']);
    });

    it('refuses another creator’s message (not found) and a message that is not a fan’s (invalid)', async () => {
      const mine = await seed({ online: true });
      const theirs = await seed({ online: true });
      const asked = await theirs.question('Hi?');
      const notMine = await refusal(
        answerAsCreator({ db: db() }, { creatorId: mine.creator.id, messageId: asked.message.id, text: 'x' }),
      );
      expect([notMine.reason, notMine.message]).toEqual(['not_found', 'No such message.']);
      const replyId = await answerAsCreator(
        { db: db() },
        { creatorId: theirs.creator.id, messageId: asked.message.id, text: 'Hello' },
      );
      const own = await refusal(
        answerAsCreator({ db: db() }, { creatorId: theirs.creator.id, messageId: replyId, text: 'x' }),
      );
      expect([own.reason, own.code]).toEqual(['invalid', 'not_a_fan_message']);
    });
  });

  describe('send to fan', () => {
    it('answers the newest pending question, then is a direct message', async () => {
      const { creator, fan, question } = await seed({ online: true });
      const older = await question('Older?');
      const newer = await question('Newer?');
      const sent = await sendToFan({ db: db() }, { creatorId: creator.id, to: fan.fan_key, text: 'Answer' });
      expect(sent.answeredMessageId).toBe(newer.message.id);
      const direct = await sendToFan({ db: db() }, { creatorId: creator.id, to: fan, text: 'Hello' });
      expect(direct.answeredMessageId).toBe(older.message.id);
      const third = await sendToFan({ db: db() }, { creatorId: creator.id, to: fan, text: 'Bye' });
      expect(third.answeredMessageId).toBeNull();
      const rows = await messagesOf(fan.id);
      expect(rows.map((m) => [m.sender, m.status, m.reply_to === null ? null : String(m.reply_to)])).toEqual([
        ['fan', 'answered', null],
        ['fan', 'answered', null],
        ['creator', null, newer.message.id],
        ['creator', null, older.message.id],
        ['creator', null, null],
      ]);
    });

    it('refuses a fan id the creator does not have, and another creator’s fan', async () => {
      const mine = await seed();
      const theirs = await seed();
      const unknown = await refusal(
        sendToFan({ db: db() }, { creatorId: mine.creator.id, to: 'fan_nobody', text: 'x' }),
      );
      expect([unknown.reason, unknown.message]).toEqual([
        'not_found',
        'Cannot find fan ID. Please try again.',
      ]);
      const other = await refusal(
        sendToFan({ db: db() }, { creatorId: mine.creator.id, to: theirs.fan, text: 'x' }),
      );
      expect(other.reason).toBe('not_found');
      expect(await messagesOf(theirs.fan.id)).toHaveLength(0);
    });
  });

  describe('delete conversation', () => {
    it('removes the fan, its messages and files, and every right to it', async () => {
      const { creator, fan, storage, cookieHash } = await seed({ online: true });
      const attachment = { buffer: PNG, mime: 'image/png', fileType: 'image' as const, filename: 'a.png' };
      await ask(
        { db: db(), storage },
        { creatorId: creator.id, fan, text: 'Look', fanName: 'Ann', attachment },
      );
      await ask(
        { db: db(), storage },
        { creatorId: creator.id, fan, text: 'Hi', fanName: 'Ann', attachment: null },
      );
      const link = await makeTransferLink(
        { db: db() },
        { cookieHash, creatorId: null },
        {
          creatorId: creator.id,
          creatorUsername: creator.username,
          fanKey: fan.fan_key,
          publicOrigin: 'https://x',
        },
      );
      expect(storage.keys()).toHaveLength(1);

      const deleted = await deleteConversation(
        { db: db(), storage },
        { creatorId: creator.id, fanIdOrName: fan.fan_key },
      );
      expect(deleted).toBe(2);
      expect(await messagesOf(fan.id)).toHaveLength(0);
      expect(storage.keys()).toHaveLength(0);
      const bindings = await conversationBindings(db(), [fan.id]);
      expect(bindings.has(fan.id)).toBe(false);
      expect(mayActAsFan({ cookieHash, creatorId: creator.id }, bindings.get(fan.id), 'read')).toBe(false);
      // The transfer link made before reaches nothing.
      const token = link.url.split('=').pop()!;
      const stale = await refusal(moveToAnotherBrowser({ db: db() }, { token, newCookieHash: 'elsewhere' }));
      expect([stale.reason, stale.code]).toEqual(['gone', 'transfer_stale']);

      const again = await refusal(
        deleteConversation({ db: db(), storage }, { creatorId: creator.id, fanIdOrName: fan.fan_key }),
      );
      expect([again.reason, again.message]).toEqual(['not_found', `No conversation with '${fan.fan_key}'.`]);
    });
  });

  describe('move to another browser', () => {
    it('rebinds the conversation to the new browser once; the old one loses it', async () => {
      const { creator, fan, cookieHash } = await seed();
      const at = new Date();
      const link = await makeTransferLink(
        { db: db(), clock: () => at },
        { cookieHash, creatorId: null },
        {
          creatorId: creator.id,
          creatorUsername: creator.username,
          fanKey: fan.fan_key,
          publicOrigin: 'https://x',
        },
      );
      expect(link.url.startsWith(`https://x/pwa/${creator.username}#`)).toBe(true);
      const token = link.url.split('=').pop()!;
      const moved = await moveToAnotherBrowser({ db: db() }, { token, newCookieHash: 'new-browser' });
      expect(moved).toEqual({ fanId: fan.fan_key, creator: creator.username });
      const binding = (await conversationBindings(db(), [fan.id])).get(fan.id);
      expect(mayActAsFan({ cookieHash: 'new-browser', creatorId: null }, binding, 'write')).toBe(true);
      expect(mayActAsFan({ cookieHash, creatorId: null }, binding, 'read')).toBe(false);

      const used = await refusal(moveToAnotherBrowser({ db: db() }, { token, newCookieHash: 'third' }));
      expect([used.reason, used.code]).toEqual(['gone', 'transfer_used']);
    });

    it('an expired link, an unknown link and a link from a browser that does not hold the chat are refused', async () => {
      const { creator, fan, cookieHash } = await seed();
      const link = await makeTransferLink(
        { db: db() },
        { cookieHash, creatorId: null },
        {
          creatorId: creator.id,
          creatorUsername: creator.username,
          fanKey: fan.fan_key,
          publicOrigin: 'https://x',
        },
      );
      const token = link.url.split('=').pop()!;
      const later = new Date(link.expiresAt.getTime() + 1);
      const expired = await refusal(
        moveToAnotherBrowser({ db: db(), clock: () => later }, { token, newCookieHash: 'new' }),
      );
      expect([expired.reason, expired.code]).toEqual(['gone', 'transfer_expired']);
      const unknown = await refusal(
        moveToAnotherBrowser({ db: db() }, { token: 'nope', newCookieHash: 'new' }),
      );
      expect(unknown.reason).toBe('not_found');
      const stranger = await refusal(
        makeTransferLink(
          { db: db() },
          { cookieHash: 'stranger', creatorId: creator.id },
          {
            creatorId: creator.id,
            creatorUsername: creator.username,
            fanKey: fan.fan_key,
            publicOrigin: 'https://x',
          },
        ),
      );
      expect(stranger.reason).toBe('forbidden');
      expect((await conversationBindings(db(), [fan.id])).get(fan.id)?.cookie_hash).toBe(cookieHash);
    });
  });
});
