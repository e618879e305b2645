import { randomUUID } from 'node:crypto';
import { DEFAULT_CHATBOT_INSTRUCTIONS } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedKnowledge } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatbotsRepository,
  deleteChatbot,
  requireChatbot,
  type SourceToAdd,
  saveChatbotWithSources,
} from './chatbots.ts';
import { DomainError } from './errors.ts';
import {
  assertKnowledgeRoom,
  assertNewAddress,
  assertResyncable,
  assertRetryable,
  KNOWLEDGE_MAX_ITEMS,
  knowledgeRepository,
  requeueKnowledgeItem,
} from './knowledge.ts';
import { ownChatbot, ownKnowledgeItem } from './ownership.ts';

// The chatbot's and its knowledge's rules, in core where they are: who may act on a chatbot or a
// source, which sources may be added, retried or re-synced, and what a delete takes with it.

/** The DomainError a call refused with (fails the test if it did not refuse). */
async function refusal(call: Promise<unknown> | (() => unknown)): Promise<DomainError> {
  const err = await (typeof call === 'function' ? Promise.resolve().then(call) : call).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

const page = (url: string): SourceToAdd => ({
  address: url,
  item: (chatbotId) => ({ id: randomUUID(), chatbotId, type: 'url', url }),
});

describe('chatbots and their knowledge (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  describe('saving the chatbot with sources', () => {
    it('renames the creator’s one chatbot and adds each new address once, in the order given', async () => {
      const { creatorId, chatbotId } = await seedCreator(db());
      const first = await saveChatbotWithSources(db(), creatorId, 'Crumb II', [
        page('https://bakery.example/a'),
        page('https://bakery.example/b'),
        page('https://bakery.example/a'),
      ]);
      expect(first.bot.id).toBe(chatbotId);
      expect(first.bot.name).toBe('Crumb II');
      expect(first.added.map((i) => [i.url, i.status])).toEqual([
        ['https://bakery.example/a', 'pending'],
        ['https://bakery.example/b', 'pending'],
      ]);
      // Saved again: the chatbot stays one, and addresses it holds are not added twice.
      const again = await saveChatbotWithSources(db(), creatorId, 'Crumb III', [
        page('https://bakery.example/b'),
        page('https://bakery.example/c'),
      ]);
      expect(again.bot.id).toBe(chatbotId);
      expect(again.added.map((i) => i.url)).toEqual(['https://bakery.example/c']);
      const items = await chatbotsRepository(db()).knowledgeFor(chatbotId);
      expect(items.map((i) => i.url)).toEqual([
        'https://bakery.example/a',
        'https://bakery.example/b',
        'https://bakery.example/c',
      ]);
    });

    it('creates the chatbot with the default instructions when the creator has none', async () => {
      const { creatorId, chatbotId } = await seedCreator(db());
      await deleteChatbot(db(), creatorId, chatbotId);
      const err = await refusal(requireChatbot(db(), creatorId));
      expect([err.reason, err.code]).toEqual(['not_found', 'not_found']);
      const { bot, added } = await saveChatbotWithSources(db(), creatorId, 'Fresh', []);
      expect(bot.id).not.toBe(chatbotId);
      expect(bot.creator_id).toBe(creatorId);
      expect(bot.instructions).toBe(DEFAULT_CHATBOT_INSTRUCTIONS);
      expect(added).toEqual([]);
      expect((await requireChatbot(db(), creatorId)).id).toBe(bot.id);
    });

    it('refuses sources beyond the chatbot’s room, and adds none of them', async () => {
      const { chatbotId } = await seedCreator(db());
      const err = await refusal(assertKnowledgeRoom(db(), chatbotId, KNOWLEDGE_MAX_ITEMS + 1));
      expect([err.reason, err.code]).toEqual(['limit', 'too_many_sources']);
      await expect(assertKnowledgeRoom(db(), chatbotId, KNOWLEDGE_MAX_ITEMS)).resolves.toBeUndefined();
      await seedKnowledge(db(), chatbotId, { url: 'https://x.example/1', title: 'One', content: 'One.' });
      expect((await refusal(assertKnowledgeRoom(db(), chatbotId, KNOWLEDGE_MAX_ITEMS))).code).toBe(
        'too_many_sources',
      );
    });
  });

  describe('whose chatbot and sources', () => {
    it('another creator’s chatbot or source is refused (forbidden); a made-up id is not found', async () => {
      const owner = await seedCreator(db());
      const other = await seedCreator(db());
      const itemId = await seedKnowledge(db(), owner.chatbotId, {
        url: 'https://owner.example/',
        title: 'Owner',
        content: 'Hours.',
      });
      expect((await ownChatbot(db(), owner.creatorId, owner.chatbotId)).id).toBe(owner.chatbotId);
      expect((await ownKnowledgeItem(db(), owner.creatorId, itemId)).id).toBe(itemId);
      expect((await refusal(ownChatbot(db(), other.creatorId, owner.chatbotId))).reason).toBe('forbidden');
      expect((await refusal(ownKnowledgeItem(db(), other.creatorId, itemId))).reason).toBe('forbidden');
      expect((await refusal(ownChatbot(db(), owner.creatorId, randomUUID()))).reason).toBe('not_found');
      expect((await refusal(ownKnowledgeItem(db(), owner.creatorId, 'not-a-uuid'))).reason).toBe('not_found');
    });

    it('deleting another creator’s chatbot is refused and leaves it and its knowledge', async () => {
      const owner = await seedCreator(db());
      const other = await seedCreator(db());
      await seedKnowledge(db(), owner.chatbotId, {
        url: 'https://keep.example/',
        title: 'Keep',
        content: 'x',
      });
      const err = await refusal(deleteChatbot(db(), other.creatorId, owner.chatbotId));
      expect([err.reason, err.code]).toEqual(['forbidden', 'forbidden']);
      expect(await chatbotsRepository(db()).findById(owner.chatbotId)).toBeDefined();
      expect(await knowledgeRepository(db()).count(owner.chatbotId)).toBe(1);
      expect((await refusal(deleteChatbot(db(), owner.creatorId, 'nope'))).reason).toBe('not_found');
    });

    it('deleting one’s chatbot takes its knowledge, answers the file keys, and is not found the second time', async () => {
      const { creatorId, chatbotId } = await seedCreator(db());
      await seedKnowledge(db(), chatbotId, { url: 'https://gone.example/', title: 'Gone', content: 'x' });
      const fileId = randomUUID();
      await knowledgeRepository(db()).insert({
        id: fileId,
        chatbotId,
        type: 'file',
        fileName: 'menu.pdf',
        fileKey: `knowledge/${fileId}.pdf`,
        fileSize: 10,
      });
      const deleted = await deleteChatbot(db(), creatorId, chatbotId);
      expect(deleted).toMatchObject({
        id: chatbotId,
        deletedKnowledge: 2,
        fileKeys: [`knowledge/${fileId}.pdf`],
      });
      expect(await knowledgeRepository(db()).count(chatbotId)).toBe(0);
      expect(await chatbotsRepository(db()).findByCreator(creatorId)).toBeUndefined();
      expect((await refusal(deleteChatbot(db(), creatorId, chatbotId))).reason).toBe('not_found');
    });
  });

  describe('adding and re-queueing a source', () => {
    it('refuses an address the chatbot already has, however it is spelled; another chatbot may add it', async () => {
      const { chatbotId } = await seedCreator(db());
      const other = await seedCreator(db());
      await seedKnowledge(db(), chatbotId, {
        url: 'https://shop.example/hours',
        title: 'Hours',
        content: 'x',
      });
      for (const same of [
        'https://shop.example/hours/',
        'https://SHOP.example/hours#today',
        ' https://shop.example/hours ',
      ]) {
        const err = await refusal(assertNewAddress(db(), chatbotId, same));
        expect([err.reason, err.code]).toEqual(['conflict', 'already_added']);
      }
      await expect(assertNewAddress(db(), chatbotId, 'https://shop.example/menu')).resolves.toBeUndefined();
      await expect(
        assertNewAddress(db(), other.chatbotId, 'https://shop.example/hours'),
      ).resolves.toBeUndefined();
    });

    it('only a failed source is retried; a file is never re-synced; a source being processed is not re-synced', async () => {
      expect((await refusal(() => assertRetryable({ status: 'completed' }))).code).toBe('not_failed');
      expect((await refusal(() => assertRetryable({ status: 'pending' }))).code).toBe('not_failed');
      expect(() => assertRetryable({ status: 'failed' })).not.toThrow();
      expect((await refusal(() => assertResyncable({ type: 'file', status: 'completed' }))).code).toBe(
        'not_resyncable',
      );
      for (const status of ['pending', 'processing'] as const) {
        expect((await refusal(() => assertResyncable({ type: 'url', status }))).code).toBe('in_progress');
      }
      expect(() => assertResyncable({ type: 'youtube', status: 'completed' })).not.toThrow();
      expect(() => assertResyncable({ type: 'url', status: 'failed' })).not.toThrow();
    });

    it('re-queues a source under a new run from the statuses allowed, and refuses one that changed meanwhile', async () => {
      const { chatbotId } = await seedCreator(db());
      const itemId = await seedKnowledge(db(), chatbotId, {
        url: 'https://r.example/',
        title: 'R',
        content: 'x',
      });
      const run = randomUUID();
      // Completed, not failed: a retry that lost a race with a re-sync finds nothing to retry.
      const err = await refusal(requeueKnowledgeItem(db(), itemId, run, ['failed']));
      expect([err.reason, err.code]).toEqual(['conflict', 'conflict']);
      const requeued = await requeueKnowledgeItem(db(), itemId, run, ['completed', 'failed']);
      expect(requeued).toMatchObject({
        id: itemId,
        status: 'pending',
        job_run: run,
        attempts: 0,
        error: null,
      });
      // Now pending: the same re-sync again is a conflict.
      expect(
        (await refusal(requeueKnowledgeItem(db(), itemId, randomUUID(), ['completed', 'failed']))).code,
      ).toBe('conflict');
    });
  });
});
