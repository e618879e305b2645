import { KNOWLEDGE_FILE_MAX_BYTES } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from './errors.ts';
import { knowledgeRepository } from './knowledge.ts';
import {
  addKnowledgeFile,
  addKnowledgeSource,
  addYoutubeKnowledge,
  deleteKnowledge,
  type KnowledgePorts,
  type KnowledgeSources,
  knowledgeOfChatbot,
  knowledgeTarget,
  progressCounts,
  readSources,
  refetchKnowledge,
  updateKnowledge,
} from './knowledge-use-cases.ts';

// The knowledge use cases (issue 35), in core where their rules are: only the owner acts on a
// chatbot's sources; an address is added once; a file is named, typed and at most 10 MB, stored
// before its row and removed when the row is not written; a refusal is a DomainError with a code
// of the closed union.

/** The DomainError a call refused with (fails the test if it did not refuse). */
async function refusal(call: Promise<unknown>): Promise<DomainError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

/** The readers the ingestion package gives the api, reduced to what these rules need. */
const sources: KnowledgeSources = {
  youtube(raw) {
    const m = /^https:\/\/www\.youtube\.com\/watch\?v=([\w-]{11})$/.exec(raw.trim());
    return m
      ? { ok: true, value: { url: `https://www.youtube.com/watch?v=${m[1]}`, videoId: m[1]! } }
      : { ok: false, reason: 'This is not a YouTube video link.' };
  },
  web(raw) {
    try {
      const url = new URL(raw.trim());
      if (url.protocol === 'https:' || url.protocol === 'http:') return { ok: true, value: url.toString() };
    } catch {
      // not an address
    }
    return { ok: false, reason: 'This is not a valid web address.' };
  },
  async fileType(bytes, fileName) {
    if (!fileName.endsWith('.txt'))
      return { ok: false, reason: 'Only PDF, TXT, DOC and DOCX files can be added.' };
    if (bytes.length === 0) return { ok: false, reason: 'The file is empty.' };
    return { ok: true, value: 'text/plain' };
  },
  youtubeTitle: async (videoId) => `Video ${videoId}`,
};

describe('knowledge use cases (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  const stored = new Map<string, Buffer>();
  const ports = (): KnowledgePorts => ({
    db: handle.db,
    storage: {
      put: async (key, body) => {
        stored.set(key, body);
      },
      remove: async (key) => {
        stored.delete(key);
      },
    },
    sources,
  });
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
  });
  afterAll(async () => {
    await close?.();
  });

  it('adds a page and a video once each; a second copy of an address is a conflict', async () => {
    const { creatorId, chatbotId } = await seedCreator(handle.db);
    const who = { creatorId };
    const page = await addKnowledgeSource(ports(), who, { chatbotId, url: 'https://bakery.example/menu' });
    expect(page).toMatchObject({ type: 'url', url: 'https://bakery.example/menu', status: 'pending' });
    const video = await addKnowledgeSource(ports(), who, {
      chatbotId,
      url: 'https://www.youtube.com/watch?v=abcdefghijk',
    });
    expect(video).toMatchObject({ type: 'youtube', title: null });
    const again = await refusal(
      addYoutubeKnowledge(ports(), who, {
        chatbotId,
        youtubeUrl: 'https://www.youtube.com/watch?v=abcdefghijk',
      }),
    );
    expect([again.reason, again.code]).toEqual(['conflict', 'already_added']);
    const titled = await addYoutubeKnowledge(ports(), who, {
      chatbotId,
      youtubeUrl: 'https://www.youtube.com/watch?v=ZYXWVUTSRQP',
    });
    expect(titled.title).toBe('Video ZYXWVUTSRQP');
    const listed = await knowledgeOfChatbot(ports(), who, { chatbotId });
    expect(listed.map((i) => i.id)).toEqual([page.id, video.id, titled.id]);
    expect(progressCounts(listed)).toMatchObject({ total: 3, pending: 3, isComplete: false });
  });

  it('a chatbot deleted between the owner check and the insert is a 404 refusal, not a fault', async () => {
    const { chatbotId } = await seedCreator(handle.db);
    await handle.db.deleteFrom('chatbots').where('id', '=', chatbotId).execute();
    const gone = await refusal(
      knowledgeRepository(handle.db).insert({
        id: crypto.randomUUID(),
        chatbotId,
        type: 'url',
        url: 'https://bakery.example/late',
      }),
    );
    expect([gone.reason, gone.code]).toEqual(['not_found', 'not_found']);
  });

  it('refuses what is not an address, with the reason and the code clients switch on', async () => {
    const { creatorId, chatbotId } = await seedCreator(handle.db);
    const bad = await refusal(addKnowledgeSource(ports(), { creatorId }, { chatbotId, url: 'not a link' }));
    expect([bad.reason, bad.code, bad.message]).toEqual([
      'invalid',
      'invalid_url',
      'This is not a valid web address. (not a link)',
    ]);
    const notVideo = await refusal(
      addYoutubeKnowledge(ports(), { creatorId }, { chatbotId, youtubeUrl: 'https://bakery.example/' }),
    );
    expect(notVideo.code).toBe('invalid_youtube_url');
    expect(() => readSources(sources, ['https://ok.example/', 'nope'])).toThrow(DomainError);
    expect(await knowledgeRepository(handle.db).count(chatbotId)).toBe(0);
  });

  it('acts only on the requester’s own chatbot and sources', async () => {
    const owner = await seedCreator(handle.db);
    const other = await seedCreator(handle.db);
    const item = await addKnowledgeSource(ports(), owner, {
      chatbotId: owner.chatbotId,
      url: 'https://own.example/',
    });
    const stranger = { creatorId: other.creatorId };
    // Each call made only when it is awaited (a refusal made early would be unhandled meanwhile).
    for (const call of [
      () => addKnowledgeSource(ports(), stranger, { chatbotId: owner.chatbotId, url: 'https://x.example/' }),
      () => knowledgeOfChatbot(ports(), stranger, { chatbotId: owner.chatbotId }),
      () => knowledgeTarget(ports(), stranger, { chatbotId: owner.chatbotId }),
      () =>
        addKnowledgeFile(ports(), stranger, {
          chatbotId: owner.chatbotId,
          bytes: Buffer.from('hello'),
          fileName: 'a.txt',
        }),
      () => deleteKnowledge(ports(), stranger, { itemId: item.id }),
      () => updateKnowledge(ports(), stranger, { itemId: item.id, fansMayDownload: true }),
      () => refetchKnowledge(ports(), stranger, { itemId: item.id, how: 'resync', runId: 'r1' }),
    ]) {
      expect((await refusal(call())).reason).toBe('forbidden');
    }
    expect((await refusal(knowledgeOfChatbot(ports(), owner, { chatbotId: 'nope' }))).reason).toBe(
      'not_found',
    );
    expect(await knowledgeRepository(handle.db).findById(item.id)).toBeDefined();
  });

  it('stores a file before its row, refuses one unnamed, untyped or too large, and deletes both', async () => {
    const { creatorId, chatbotId } = await seedCreator(handle.db);
    const who = { creatorId };
    const file = await addKnowledgeFile(ports(), who, {
      chatbotId,
      bytes: Buffer.from('Opening hours: 7 to 3.'),
      fileName: 'C:\\docs\\hours.txt',
      fansMayDownload: true,
    });
    expect(file).toMatchObject({
      type: 'file',
      file_name: 'hours.txt',
      fans_may_download: true,
      file_size: 22,
    });
    expect(stored.get(file.file_key!)?.toString()).toBe('Opening hours: 7 to 3.');

    const refused = [
      await refusal(addKnowledgeFile(ports(), who, { chatbotId, bytes: Buffer.from('x'), fileName: '/' })),
      await refusal(
        addKnowledgeFile(ports(), who, { chatbotId, bytes: Buffer.from('x'), fileName: 'a.exe' }),
      ),
      await refusal(
        addKnowledgeFile(ports(), who, {
          chatbotId,
          bytes: Buffer.alloc(KNOWLEDGE_FILE_MAX_BYTES + 1),
          fileName: 'big.txt',
        }),
      ),
    ];
    expect(refused.map((e) => [e.reason, e.code])).toEqual([
      ['invalid', 'no_file'],
      ['invalid', 'unsupported_file'],
      ['too_large', 'file_too_large'],
    ]);
    expect(await knowledgeRepository(handle.db).count(chatbotId)).toBe(1);

    const closed = await updateKnowledge(ports(), who, { itemId: file.id, fansMayDownload: false });
    expect(closed.fans_may_download).toBe(false);
    await deleteKnowledge(ports(), who, { itemId: file.id });
    expect(stored.has(file.file_key!)).toBe(false);
    expect(await knowledgeRepository(handle.db).findById(file.id)).toBeUndefined();
  });

  it('re-fetches a failed source (retry) or a settled page (resync), never a file or one in progress', async () => {
    const { creatorId, chatbotId } = await seedCreator(handle.db);
    const who = { creatorId };
    const page = await addKnowledgeSource(ports(), who, { chatbotId, url: 'https://again.example/' });
    const busy = await refusal(
      refetchKnowledge(ports(), who, { itemId: page.id, how: 'resync', runId: 'r1' }),
    );
    expect(busy.code).toBe('in_progress');
    const notFailed = await refusal(
      refetchKnowledge(ports(), who, { itemId: page.id, how: 'retry', runId: 'r1' }),
    );
    expect(notFailed.code).toBe('not_failed');
    await handle.db
      .updateTable('knowledge_items')
      .set({ status: 'failed' })
      .where('id', '=', page.id)
      .execute();
    const retried = await refetchKnowledge(ports(), who, { itemId: page.id, how: 'retry', runId: 'run-2' });
    expect(retried).toMatchObject({ status: 'pending', job_run: 'run-2' });
    const file = await addKnowledgeFile(ports(), who, {
      chatbotId,
      bytes: Buffer.from('x'),
      fileName: 'f.txt',
    });
    const notPage = await refusal(
      refetchKnowledge(ports(), who, { itemId: file.id, how: 'resync', runId: 'r3' }),
    );
    expect(notPage.code).toBe('not_resyncable');
  });
});
