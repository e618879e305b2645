import { type LoopbackServer, makeDocx, makePdf, startYoutubeStandIn } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identity, json, onboardedCreator, PNG_1PX, send, startTestApp, type TestApp } from '../helpers.ts';

const upload = (
  t: TestApp,
  chatbotId: string,
  cookie: string,
  bytes: Buffer,
  name: string,
  field = 'file',
) => {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)]), name);
  return fetch(`${t.url}/api/chatbots/${chatbotId}/knowledge/upload`, {
    method: 'POST',
    headers: { cookie },
    body: form,
  });
};

describe('chatbot and knowledge calls', () => {
  let t: TestApp;
  let yt: LoopbackServer;
  let owner: Awaited<ReturnType<typeof onboardedCreator>>;
  let other: Awaited<ReturnType<typeof onboardedCreator>>;
  beforeAll(async () => {
    yt = await startYoutubeStandIn({ dQw4w9WgXcQ: { title: 'Warm-up in 5 minutes', captions: [] } });
    t = await startTestApp({ env: { INGEST_YOUTUBE_ORIGIN: yt.url } });
    owner = await onboardedCreator(t, 'harriet');
    other = await onboardedCreator(t, 'ingrid');
  });
  afterAll(async () => {
    await t?.close();
    await yt?.close();
  });

  it("reads the creator's chatbot (null before onboarding), only for its owner", async () => {
    const res = await send(t, 'GET', `/api/creators/username/${owner.username}/chatbot`, owner.cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: owner.chatbotId,
      name: 'harriet bot',
      model: 'gpt-4o-mini',
      temp: 0.7,
      knowledge: [],
    });
    const fresh = await t.signIn(identity('newbie'));
    const me = (await (await send(t, 'GET', '/api/auth/user', fresh)).json()) as { username: string };
    expect(
      await (await send(t, 'GET', `/api/creators/username/${me.username}/chatbot`, fresh)).json(),
    ).toBeNull();
    expect(
      (await send(t, 'GET', `/api/creators/username/${other.username}/chatbot`, owner.cookie)).status,
    ).toBe(403);
    expect((await send(t, 'GET', '/api/creators/username/nobody-here/chatbot', owner.cookie)).status).toBe(
      404,
    );
    expect((await send(t, 'GET', `/api/creators/username/${owner.username}/chatbot`, '')).status).toBe(401);
  });

  it('creates a chatbot with URL sources; blank rows dropped; an existing chatbot is renamed and gains the URLs once', async () => {
    const newcomer = await t.signIn(identity('jasper'));
    const me = (await (await send(t, 'GET', '/api/auth/user', newcomer)).json()) as { username: string };
    const path = `/api/creators/username/${me.username}/chatbot`;
    // A missing, null or blank name reads exactly the specified words; the field comes apart.
    for (const body of [{ name: '   ', urls: [] }, { urls: [] }, { name: null }, {}]) {
      const missing = await send(t, 'POST', path, newcomer, body);
      expect(missing.status).toBe(400);
      expect(await json(missing)).toEqual({
        error: 'validation_error',
        message: 'Please enter a chatbot name',
        field: 'name',
      });
    }
    // An empty JSON body, too.
    const empty = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { cookie: newcomer, 'content-type': 'application/json' },
      body: '',
    });
    expect(empty.status).toBe(400);
    expect((await json(empty)).message).toBe('Please enter a chatbot name');

    const created = await send(t, 'POST', path, newcomer, {
      name: 'Jasper AI',
      urls: ['https://jasper.example/about', '  ', '', 'https://youtu.be/dQw4w9WgXcQ?t=30'],
    });
    // Every success is 200 (the specified client treats any OK as success), created or not.
    expect(created.status).toBe(200);
    const bot = (await created.json()) as {
      name: string;
      model: string;
      knowledge: { type: string; status: string; url: string | null; youtubeUrl: string | null }[];
    };
    expect(bot).toMatchObject({ name: 'Jasper AI', model: 'gpt-4o-mini', temp: 0.7 });
    expect(bot.knowledge.map((k) => [k.type, k.status, k.url ?? k.youtubeUrl])).toEqual([
      ['url', 'pending', 'https://jasper.example/about'],
      ['youtube', 'pending', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
    ]);

    const again = await send(t, 'POST', path, newcomer, {
      name: 'Jasper Two',
      urls: ['https://jasper.example/about', 'https://jasper.example/faq'],
    });
    expect(again.status).toBe(200);
    const updated = (await again.json()) as { name: string; knowledge: unknown[] };
    expect(updated.name).toBe('Jasper Two');
    expect(updated.knowledge).toHaveLength(3);

    const bad = await send(t, 'POST', path, newcomer, { name: 'X', urls: ['ftp://files.example/a'] });
    expect(bad.status).toBe(400);
    expect((await json(bad)).message).toMatch(/http/);
    expect(
      (
        await send(t, 'POST', `/api/creators/username/${other.username}/chatbot`, newcomer, {
          name: 'Mine now',
        })
      ).status,
    ).toBe(403);
  });

  it('reads a chatbot by id for its owner only: 403 for another, 404 for unknown ids', async () => {
    const res = await send(t, 'GET', `/api/chatbots/${owner.chatbotId}`, owner.cookie);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { chatbotId: string }).chatbotId).toBe(owner.chatbotId);
    expect((await send(t, 'GET', `/api/chatbots/${other.chatbotId}`, owner.cookie)).status).toBe(403);
    expect((await send(t, 'GET', `/api/chatbots/${crypto.randomUUID()}`, owner.cookie)).status).toBe(404);
    expect((await send(t, 'GET', '/api/chatbots/not-a-uuid', owner.cookie)).status).toBe(404);
    expect((await send(t, 'GET', `/api/chatbots/${owner.chatbotId}`, '')).status).toBe(401);
  });

  it('updates settings: temp as a string from 0 to 1 in steps of 0.1, a model from the list', async () => {
    const path = `/api/chatbots/${owner.chatbotId}/settings`;
    const ok = await send(t, 'PUT', path, owner.cookie, {
      name: 'Harriet Coach',
      instructions: 'Answer like a strength coach.',
      model: 'claude-3-haiku-20240307',
      temp: '0.3',
      initialMessages: ['Hi! Ask me about training.'],
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      name: 'Harriet Coach',
      instructions: 'Answer like a strength coach.',
      model: 'claude-3-haiku-20240307',
      temp: 0.3,
      initialMessages: ['Hi! Ask me about training.'],
    });
    for (const [body, text, field] of [
      [{ name: 'x', model: 'gpt-4o', temp: '1.5' }, 'from 0 to 1', 'temp'],
      [{ name: 'x', model: 'gpt-4o', temp: '0.35' }, 'steps of 0.1', 'temp'],
      [{ name: 'x', model: 'gpt-5-turbo-max', temp: '0.5' }, 'gpt-4o-mini', 'model'],
      [{ name: '', model: 'gpt-4o', temp: '0.5' }, 'Please enter a chatbot name', 'name'],
      [{ model: 'gpt-4o', temp: '0.5' }, 'Please enter a chatbot name', 'name'],
      [{ name: null, model: 'gpt-4o', temp: '0.5' }, 'Please enter a chatbot name', 'name'],
    ] as const) {
      const res = await send(t, 'PUT', path, owner.cookie, body);
      expect(res.status).toBe(400);
      const err = await json(res);
      expect(err.message).toContain(text);
      expect(err.message).not.toMatch(/^\w+: /);
      expect(err.field).toBe(field);
    }
    const blankName = await json(
      await send(t, 'PUT', path, owner.cookie, { name: ' ', model: 'gpt-4o', temp: '0.5' }),
    );
    expect(blankName.message).toBe('Please enter a chatbot name');
    expect(
      (
        await send(t, 'PUT', `/api/chatbots/${other.chatbotId}/settings`, owner.cookie, {
          name: 'x',
          model: 'gpt-4o',
          temp: '0.5',
        })
      ).status,
    ).toBe(403);
  });

  it('keeps a daily AI answer budget: 300 by default, set by an optional whole number from 1 to 100,000', async () => {
    const path = `/api/chatbots/${owner.chatbotId}/settings`;
    const read = async () =>
      (await json(await send(t, 'GET', `/api/chatbots/${owner.chatbotId}`, owner.cookie))).dailyAiBudget;
    const spec = { name: 'Harriet Coach', instructions: '', model: 'gpt-4o', temp: '0.5' };
    // The specified four fields alone leave the budget as it is.
    expect((await json(await send(t, 'PUT', path, owner.cookie, spec))).dailyAiBudget).toBe(300);
    expect(await read()).toBe(300);
    const set = await send(t, 'PUT', path, owner.cookie, { ...spec, dailyAiBudget: 40 });
    expect(set.status).toBe(200);
    expect((await json(set)).dailyAiBudget).toBe(40);
    expect(await read()).toBe(40);
    const mine = await json(
      await send(t, 'GET', `/api/creators/username/${owner.username}/chatbot`, owner.cookie),
    );
    expect(mine.dailyAiBudget).toBe(40);
    for (const bad of [0, -1, 100_001, 2.5, '50', null, true, 1e308]) {
      const res = await send(t, 'PUT', path, owner.cookie, { ...spec, name: 'Renamed', dailyAiBudget: bad });
      expect([bad, res.status]).toEqual([bad, 400]);
      const err = await json(res);
      expect(err).toEqual({
        error: 'validation_error',
        message: 'The daily AI answer budget must be a whole number from 1 to 100,000',
        field: 'dailyAiBudget',
      });
    }
    // Nothing of a refused update was written.
    expect(await read()).toBe(40);
    expect((await json(await send(t, 'GET', `/api/chatbots/${owner.chatbotId}`, owner.cookie))).name).toBe(
      'Harriet Coach',
    );
    for (const edge of [1, 100_000]) {
      const res = await send(t, 'PUT', path, owner.cookie, { ...spec, dailyAiBudget: edge });
      expect((await json(res)).dailyAiBudget).toBe(edge);
    }
    const usage = await json(
      await send(t, 'GET', `/api/creators/username/${owner.username}/usage`, owner.cookie),
    );
    expect(usage).toMatchObject({ aiAnswersToday: 0, dailyAiBudget: 100_000, aiBudgetReached: false });
  });

  it('adds a URL (a YouTube link becomes a video) and reports progress', async () => {
    const add = await send(t, 'POST', '/api/add-knowledge', owner.cookie, {
      chatbotId: owner.chatbotId,
      url: ' https://coach.example/guide ',
    });
    expect(add.status).toBe(200);
    expect(await add.json()).toMatchObject({
      type: 'url',
      url: 'https://coach.example/guide',
      status: 'pending',
      error: null,
    });
    const video = await send(t, 'POST', '/api/add-knowledge', owner.cookie, {
      chatbotId: owner.chatbotId,
      url: 'https://www.youtube.com/shorts/dQw4w9WgXcQ',
    });
    expect(await video.json()).toMatchObject({
      type: 'youtube',
      youtubeUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    });
    const bad = await send(t, 'POST', '/api/add-knowledge', owner.cookie, {
      chatbotId: owner.chatbotId,
      url: 'javascript:alert(1)',
    });
    expect(bad.status).toBe(400);
    expect(
      (
        await send(t, 'POST', '/api/add-knowledge', owner.cookie, {
          chatbotId: other.chatbotId,
          url: 'https://x.example',
        })
      ).status,
    ).toBe(403);

    const progress = await send(
      t,
      'GET',
      `/api/chatbots/${owner.chatbotId}/knowledge/progress`,
      owner.cookie,
    );
    expect(progress.status).toBe(200);
    const body = (await progress.json()) as { total: number; items: { source: string }[] };
    expect(body).toMatchObject({ total: 2, active: 0, pending: 2, progressPercentage: 0, isComplete: false });
    expect(body.items.map((i) => i.source)).toEqual([
      'https://coach.example/guide',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    ]);
    expect(
      (await send(t, 'GET', `/api/chatbots/${other.chatbotId}/knowledge/progress`, owner.cookie)).status,
    ).toBe(403);
  });

  it('adds a YouTube video and answers with its title', async () => {
    // The same video is already there (added as a link above): adding it again is refused (409).
    const twice = await send(t, 'POST', `/api/chatbots/${owner.chatbotId}/knowledge/youtube`, owner.cookie, {
      youtubeUrl: 'https://youtu.be/dQw4w9WgXcQ?t=12',
    });
    expect(twice.status).toBe(409);
    const existing = await t.db.db
      .selectFrom('knowledge_items')
      .select('id')
      .where('chatbot_id', '=', owner.chatbotId)
      .where('type', '=', 'youtube')
      .execute();
    for (const { id } of existing) await send(t, 'DELETE', `/api/knowledge/${id}`, owner.cookie);
    const res = await send(t, 'POST', `/api/chatbots/${owner.chatbotId}/knowledge/youtube`, owner.cookie, {
      youtubeUrl: 'https://youtu.be/dQw4w9WgXcQ?t=12',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      type: 'youtube',
      title: 'Warm-up in 5 minutes',
      status: 'pending',
    });
    const bad = await send(t, 'POST', `/api/chatbots/${owner.chatbotId}/knowledge/youtube`, owner.cookie, {
      youtubeUrl: 'https://vimeo.com/1',
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).message).toBe('This is not a YouTube video link.');
  });

  it('uploads a file checked by its content and stores it in object storage', async () => {
    const res = await upload(
      t,
      owner.chatbotId,
      owner.cookie,
      makePdf([['Hello from a PDF']]),
      'C:\\Users\\h\\plan.pdf',
    );
    expect(res.status).toBe(200);
    const item = (await res.json()) as { id: string; type: string; fileName: string; status: string };
    expect(item).toMatchObject({ type: 'file', fileName: 'plan.pdf', status: 'pending' });
    const row = await t.db.db
      .selectFrom('knowledge_items')
      .selectAll()
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(row.file_size).toBeGreaterThan(0);
    expect(await t.storage.head(row.file_key!)).toMatchObject({ contentType: 'application/pdf' });
    const docx = await upload(t, owner.chatbotId, owner.cookie, makeDocx(['Hello']), 'notes.docx');
    expect(docx.status).toBe(200);
  });

  it.each([
    [
      'a file over 10 MB',
      () => Buffer.alloc(10 * 1024 * 1024 + 10, 'a'),
      'big.txt',
      413,
      /larger than 10 MB/,
    ],
    ['a PNG named .pdf', () => PNG_1PX, 'photo.pdf', 400, /not a real PDF/],
    ['a PDF named .docx', () => makePdf([['x']]), 'report.docx', 400, /not a real DOCX/],
    ['an executable', () => Buffer.from('MZ\x90\x00'), 'setup.exe', 400, /Only PDF, TXT, DOC and DOCX/],
    ['an empty file', () => Buffer.alloc(0), 'empty.txt', 400, /empty/],
  ])('refuses %s with a readable 4xx and stores nothing', async (_label, make, name, status, pattern) => {
    const before = await t.db.db
      .selectFrom('knowledge_items')
      .select('id')
      .where('type', '=', 'file')
      .execute();
    const res = await upload(t, owner.chatbotId, owner.cookie, make(), name);
    expect(res.status).toBe(status);
    expect((await json(res)).message).toMatch(pattern);
    const after = await t.db.db
      .selectFrom('knowledge_items')
      .select('id')
      .where('type', '=', 'file')
      .execute();
    expect(after).toHaveLength(before.length);
  });

  it('refuses an upload without the file field, or not multipart, or to another chatbot', async () => {
    const wrongField = await upload(t, owner.chatbotId, owner.cookie, Buffer.from('hi'), 'a.txt', 'document');
    expect(wrongField.status).toBe(400);
    expect((await json(wrongField)).message).toMatch(/field "file"/);
    const notMultipart = await send(
      t,
      'POST',
      `/api/chatbots/${owner.chatbotId}/knowledge/upload`,
      owner.cookie,
      { file: 'x' },
    );
    expect(notMultipart.status).toBe(415);
    expect((await upload(t, other.chatbotId, owner.cookie, Buffer.from('hi'), 'a.txt')).status).toBe(403);
  });

  it('deletes an item with its chunks and its stored file; only its owner may', async () => {
    const res = await upload(
      t,
      owner.chatbotId,
      owner.cookie,
      Buffer.from('Delete me soon, please.'),
      'temp.txt',
    );
    const item = (await res.json()) as { id: string };
    const row = await t.db.db
      .selectFrom('knowledge_items')
      .selectAll()
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    await t.db.db
      .insertInto('chunks')
      .values({
        knowledge_item_id: item.id,
        chatbot_id: owner.chatbotId,
        ordinal: 0,
        content: 'Delete me',
        metadata: '{}',
      })
      .execute();
    expect((await send(t, 'DELETE', `/api/knowledge/${item.id}`, other.cookie)).status).toBe(403);
    // As the specified client sends it: a JSON content type and no body at all.
    const del = await fetch(`${t.url}/api/knowledge/${item.id}`, {
      method: 'DELETE',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      body: '',
    });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ success: true, id: item.id });
    expect(
      await t.db.db.selectFrom('chunks').select('id').where('knowledge_item_id', '=', item.id).execute(),
    ).toEqual([]);
    expect(await t.storage.head(row.file_key!)).toBeNull();
    expect((await send(t, 'DELETE', `/api/knowledge/${item.id}`, owner.cookie)).status).toBe(404);
  });

  it('retries only failed items and re-syncs only URLs and videos that are not running', async () => {
    const add = await send(t, 'POST', '/api/add-knowledge', owner.cookie, {
      chatbotId: owner.chatbotId,
      url: 'https://coach.example/retry',
    });
    const item = (await add.json()) as { id: string };
    expect((await send(t, 'POST', `/api/knowledge/${item.id}/retry`, owner.cookie)).status).toBe(409);
    expect((await send(t, 'POST', `/api/knowledge/${item.id}/resync`, owner.cookie)).status).toBe(409);
    await t.db.db
      .updateTable('knowledge_items')
      .set({ status: 'failed', error: 'The site could not be found.' })
      .where('id', '=', item.id)
      .execute();
    // Written here, not through the api: wait until its process has heard it from the change feed.
    await t.app.changes.caughtUp();
    const progress = (await (
      await send(t, 'GET', `/api/chatbots/${owner.chatbotId}/knowledge/progress`, owner.cookie)
    ).json()) as {
      items: { id: string; error: string | null }[];
    };
    expect(progress.items.find((i) => i.id === item.id)?.error).toBe('The site could not be found.');
    expect((await send(t, 'POST', `/api/knowledge/${item.id}/retry`, other.cookie)).status).toBe(403);
    const retried = await send(t, 'POST', `/api/knowledge/${item.id}/retry`, owner.cookie);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ status: 'pending', error: null });
    const row = await t.db.db
      .selectFrom('knowledge_items')
      .select(['job_run', 'attempts'])
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(row.job_run).toMatch(new RegExp(`^${item.id}-retry-`));

    await t.db.db
      .updateTable('knowledge_items')
      .set({ status: 'completed' })
      .where('id', '=', item.id)
      .execute();
    const resynced = await send(t, 'POST', `/api/knowledge/${item.id}/resync`, owner.cookie);
    expect(resynced.status).toBe(200);
    const file = (await (
      await upload(t, owner.chatbotId, owner.cookie, Buffer.from('text'), 'a.txt')
    ).json()) as { id: string };
    await t.db.db
      .updateTable('knowledge_items')
      .set({ status: 'completed' })
      .where('id', '=', file.id)
      .execute();
    expect((await send(t, 'POST', `/api/knowledge/${file.id}/resync`, owner.cookie)).status).toBe(400);
  });
});

describe('deleting a chatbot (issue 29)', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof onboardedCreator>>;
  let other: Awaited<ReturnType<typeof onboardedCreator>>;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await onboardedCreator(t, 'petra');
    other = await onboardedCreator(t, 'quentin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('deletes it with its knowledge and stored files; only its owner may; a new one can be created', async () => {
    const res = await upload(t, owner.chatbotId, owner.cookie, Buffer.from('Knowledge to go.'), 'gone.txt');
    expect(res.status).toBe(200);
    const item = (await res.json()) as { id: string };
    const row = await t.db.db
      .selectFrom('knowledge_items')
      .selectAll()
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    await send(t, 'POST', '/api/add-knowledge', owner.cookie, {
      chatbotId: owner.chatbotId,
      url: 'https://coach.example/about',
    });

    // Hostile and bad input: someone else's, signed out, a malformed id.
    expect((await send(t, 'DELETE', `/api/chatbots/${owner.chatbotId}`, other.cookie)).status).toBe(403);
    expect((await send(t, 'DELETE', `/api/chatbots/${owner.chatbotId}`, '')).status).toBe(401);
    const malformed = await send(t, 'DELETE', '/api/chatbots/not-a-uuid', owner.cookie);
    expect(malformed.status).toBe(404);
    expect(await json(malformed)).toMatchObject({ error: 'not_found' });

    const del = await send(t, 'DELETE', `/api/chatbots/${owner.chatbotId}`, owner.cookie);
    expect(del.status).toBe(200);
    expect(await json(del)).toEqual({ success: true, id: owner.chatbotId, deletedKnowledge: 2 });
    expect(
      await t.db.db
        .selectFrom('knowledge_items')
        .select('id')
        .where('chatbot_id', '=', owner.chatbotId)
        .execute(),
    ).toEqual([]);
    expect(await t.storage.head(row.file_key!)).toBeNull();
    // The dashboard now reads no chatbot; the other creator's is untouched.
    const mine = await send(t, 'GET', `/api/creators/username/${owner.username}/chatbot`, owner.cookie);
    expect(await json(mine)).toBeNull();
    const theirs = await send(t, 'GET', `/api/chatbots/${other.chatbotId}`, other.cookie);
    expect(theirs.status).toBe(200);
    // Deleted twice: 404 with a clear message.
    const again = await send(t, 'DELETE', `/api/chatbots/${owner.chatbotId}`, owner.cookie);
    expect(again.status).toBe(404);
    expect((await json(again)).message).toMatch(/already deleted/);
    // The Create AI Chatbot modal's call makes a new one.
    const created = await send(t, 'POST', `/api/creators/username/${owner.username}/chatbot`, owner.cookie, {
      name: 'Second Coach',
      urls: [''],
    });
    expect(created.status).toBe(200);
    expect(await json(created)).toMatchObject({ name: 'Second Coach' });
  });
});

describe('the same address added twice (issue 29)', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof onboardedCreator>>;
  let other: Awaited<ReturnType<typeof onboardedCreator>>;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await onboardedCreator(t, 'rosa');
    other = await onboardedCreator(t, 'sven');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is refused with 409 and a message pointing to Re-sync; other chatbots may add it', async () => {
    const add = (who: typeof owner, url: string) =>
      send(t, 'POST', '/api/add-knowledge', who.cookie, { chatbotId: who.chatbotId, url });
    expect((await add(owner, 'https://coach.example/about')).status).toBe(200);
    for (const again of [
      'https://coach.example/about',
      'https://coach.example/about/',
      'HTTPS://coach.example/about#team',
    ]) {
      const res = await add(owner, again);
      expect(res.status, again).toBe(409);
      expect(await json(res)).toMatchObject({
        error: 'already_added',
        message: expect.stringMatching(/Re-sync/),
      });
    }
    expect((await add(other, 'https://coach.example/about')).status).toBe(200);
    const rows = await t.db.db
      .selectFrom('knowledge_items')
      .select('id')
      .where('chatbot_id', '=', owner.chatbotId)
      .where('url', 'like', 'https://coach.example/about%')
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe("opening a creator's own knowledge file (issue 29)", () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof onboardedCreator>>;
  let other: Awaited<ReturnType<typeof onboardedCreator>>;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await onboardedCreator(t, 'tilda');
    other = await onboardedCreator(t, 'ulf');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves a PDF inline to its owner only, never cached; a page is not a file', async () => {
    const pdf = makePdf([['Opening hours: seven to three']]);
    const res = await upload(t, owner.chatbotId, owner.cookie, pdf, 'hours.pdf');
    const { id } = (await res.json()) as { id: string };
    const open = await send(t, 'GET', `/api/knowledge/${id}/file`, owner.cookie);
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toBe('application/pdf');
    expect(open.headers.get('content-disposition')).toMatch(/^inline; filename="hours\.pdf"/);
    expect(open.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await open.arrayBuffer()).equals(pdf)).toBe(true);

    expect((await send(t, 'GET', `/api/knowledge/${id}/file`, other.cookie)).status).toBe(403);
    expect((await send(t, 'GET', `/api/knowledge/${id}/file`, '')).status).toBe(401);
    expect((await send(t, 'GET', '/api/knowledge/nope/file', owner.cookie)).status).toBe(404);
    const page = await send(t, 'POST', '/api/add-knowledge', owner.cookie, {
      chatbotId: owner.chatbotId,
      url: 'https://coach.example/hours',
    });
    const pageId = ((await page.json()) as { id: string }).id;
    const notFile = await send(t, 'GET', `/api/knowledge/${pageId}/file`, owner.cookie);
    expect(notFile.status).toBe(400);
    expect(await json(notFile)).toMatchObject({ error: 'not_a_file' });
  });
});
