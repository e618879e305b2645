import { randomBytes, randomUUID } from 'node:crypto';
import type { StoredSource } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedQuestion } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  citedPassage,
  downloadableFile,
  downloadEpochOf,
  offerFileToFans,
  readableCitingMessage,
} from './citations.ts';
import { storeAiAnswer } from './conversations/store-ai-answer.ts';
import { DomainError } from './errors.ts';
import { fansRepository } from './fans.ts';
import { knowledgeRepository } from './knowledge.ts';

// A creator's files are theirs (record 0019), in core where the rule is: a cited passage is read
// only by the browser holding that conversation or its creator, only from the creator's own file
// while it exists, and the whole file only while the creator allows downloads.

async function refusal(call: Promise<unknown>): Promise<DomainError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe('citations of a creator’s files (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  const addFile = async (chatbotId: string) => {
    const id = randomUUID();
    return knowledgeRepository(db()).insert({
      id,
      chatbotId,
      type: 'file',
      fileName: 'course.pdf',
      fileKey: `knowledge/${id}.pdf`,
      fileSize: 1_000,
      title: 'The course',
    });
  };

  /**
   * A creator with a file, and a fan (bound to a browser whose cookie hash we know) whose question
   * the AI answered citing a passage of a file (the creator's own, unless `cite` names another) and a web page.
   */
  const seed = async (cite?: (own: string) => string) => {
    const creator = await seedCreator(db());
    const file = await addFile(creator.chatbotId);
    const cookieHash = randomBytes(32).toString('hex');
    const fan = await fansRepository(db()).insertOrGet({
      creatorId: creator.creatorId,
      fanKey: `mobile_fan_${randomUUID()}`,
      name: 'Finn',
      cookieHash,
    });
    const questionId = await seedQuestion(
      db(),
      { creatorId: creator.creatorId, id: fan.id, name: 'Finn' },
      'How long do I knead?',
    );
    const sources: StoredSource[] = [
      {
        title: 'The course',
        source: 'course.pdf',
        kind: 'pdf',
        page: 3,
        itemId: cite ? cite(file.id) : file.id,
        passage: 'Knead for ten minutes.',
      },
      { title: 'Blog', source: 'blog.example', kind: 'web', url: 'https://blog.example/knead' },
    ];
    const stored = await storeAiAnswer(db(), {
      questionId,
      creatorId: creator.creatorId,
      body: 'Ten minutes [1].',
      sources,
      gap: false,
      now: new Date(),
    });
    expect(stored.outcome).toBe('answered');
    return { creator, file, fan, cookieHash, answerId: stored.replyId! };
  };

  it('the browser holding the conversation and its creator read the cited passage; no one else does', async () => {
    const { creator, fan, cookieHash, answerId } = await seed();
    const other = await seedCreator(db());
    const asFan = await readableCitingMessage(db(), { cookieHash, creatorId: null }, fan.fan_key, answerId);
    expect(await citedPassage(db(), asFan, 0)).toMatchObject({
      text: 'Knead for ten minutes.',
      page: 3,
      source: 'course.pdf',
    });
    const asCreator = await readableCitingMessage(
      db(),
      { cookieHash: null, creatorId: creator.creatorId },
      fan.fan_key,
      answerId,
    );
    expect(asCreator.id).toBe(answerId);
    for (const stranger of [
      { cookieHash: randomBytes(32).toString('hex'), creatorId: null },
      { cookieHash: null, creatorId: other.creatorId },
      { cookieHash: null, creatorId: null },
    ]) {
      const err = await refusal(readableCitingMessage(db(), stranger, fan.fan_key, answerId));
      expect(err.reason).toBe('forbidden');
    }
    // An answer that is not in that fan's chat is not found, whoever asks.
    const notThere = await refusal(
      readableCitingMessage(db(), { cookieHash, creatorId: null }, `mobile_fan_${randomUUID()}`, answerId),
    );
    expect(notThere.reason).toBe('not_found');
  });

  it('only a file citation opens, and only while the file exists', async () => {
    const { fan, cookieHash, answerId, file } = await seed();
    const message = await readableCitingMessage(db(), { cookieHash, creatorId: null }, fan.fan_key, answerId);
    for (const n of [1, 2]) {
      const err = await refusal(citedPassage(db(), message, n));
      expect([err.reason, err.code]).toEqual(['not_found', 'not_found']);
    }
    await knowledgeRepository(db()).remove(file.id);
    const gone = await refusal(citedPassage(db(), message, 0));
    expect(gone.message).toMatch(/no longer available/);
  });

  it('an answer citing another creator’s file opens nothing', async () => {
    const stranger = await seedCreator(db());
    const theirs = await addFile(stranger.chatbotId);
    const { fan, cookieHash, answerId } = await seed(() => theirs.id);
    const message = await readableCitingMessage(db(), { cookieHash, creatorId: null }, fan.fan_key, answerId);
    expect((await refusal(citedPassage(db(), message, 0))).reason).toBe('not_found');
  });

  it('the whole file only while the creator allows it; switching off ends links issued before', async () => {
    const { creator, file } = await seed();
    const refused = await refusal(downloadableFile(db(), file.id));
    expect([refused.reason, refused.code]).toEqual(['forbidden', 'download_not_allowed']);
    await offerFileToFans(db(), file, true);
    expect(await downloadableFile(db(), file.id)).toMatchObject({ id: file.id, file_key: file.file_key });
    const epoch = await downloadEpochOf(db(), file.id);
    await offerFileToFans(db(), file, false);
    expect(await downloadEpochOf(db(), file.id)).toBe(epoch + 1);
    expect((await refusal(downloadableFile(db(), file.id))).code).toBe('download_not_allowed');
    // Only a file can be offered; a deleted one is not found.
    const page = await knowledgeRepository(db()).insert({
      id: randomUUID(),
      chatbotId: creator.chatbotId,
      type: 'url',
      url: 'https://page.example/',
    });
    const notFile = await refusal(offerFileToFans(db(), page, true));
    expect([notFile.reason, notFile.code]).toEqual(['invalid', 'not_a_file']);
    await knowledgeRepository(db()).remove(file.id);
    expect((await refusal(offerFileToFans(db(), file, true))).reason).toBe('not_found');
    expect((await refusal(downloadEpochOf(db(), file.id))).reason).toBe('not_found');
    expect((await refusal(downloadableFile(db(), 'nope'))).reason).toBe('not_found');
  });
});
