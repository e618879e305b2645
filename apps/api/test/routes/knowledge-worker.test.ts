import { randomBytes } from 'node:crypto';
import { retrieve } from '@fanpilot/knowledge';
import {
  articlePage,
  type LoopbackServer,
  makeDocx,
  makePdf,
  startSite,
  startYoutubeStandIn,
  WORD_DOC_FACT,
  wordDocFixture,
} from '@fanpilot/testkit';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { identity, PNG_1PX, startTestApp, type TestApp, uploadAs } from '../helpers.ts';
import { startWorker, type WorkerProcess, waitFor } from '../worker.ts';

const enabled = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

interface Progress {
  total: number;
  active: number;
  pending: number;
  progressPercentage: number;
  isComplete: boolean;
  items: { id: string; type: string; status: string; error: string | null; title: string | null }[];
}

describe.skipIf(!enabled)('knowledge through a real worker process (PostgreSQL, Redis, S3)', () => {
  const prefix = `fp-test-${randomBytes(4).toString('hex')}`;
  let t: TestApp;
  let site: LoopbackServer;
  let yt: LoopbackServer;
  let worker: WorkerProcess | undefined;
  const extra: WorkerProcess[] = [];
  let cookie: string;
  let chatbotId: string;
  let releaseHeld: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    releaseHeld = resolve;
  });

  const workerEnv = () => ({
    INGEST_ALLOWED_PRIVATE_HOSTS: 'localhost',
    INGEST_YOUTUBE_ORIGIN: yt.url,
    INGEST_DNS_OVERRIDES: 'intranet.fanpilot.test=10.0.0.1,metadata.fanpilot.test=169.254.169.254',
    INGEST_FETCH_TIMEOUT_MS: '10000',
  });
  const local = (path: string) => `http://localhost:${site.port}${path}`;
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${t.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const addUrl = async (url: string) => {
    const res = await api('POST', '/api/add-knowledge', { chatbotId, url });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };
  const uploadFile = async (bytes: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${t.url}/api/chatbots/${chatbotId}/knowledge/upload`, {
      method: 'POST',
      headers: { cookie },
      body: form,
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };
  const progress = async () =>
    (await (await api('GET', `/api/chatbots/${chatbotId}/knowledge/progress`)).json()) as Progress;
  const itemRow = (id: string) =>
    t.db.db.selectFrom('knowledge_items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const settled = (ids: string[]) =>
    waitFor(
      'items to settle',
      async () => {
        const p = await progress();
        const mine = p.items.filter((i) => ids.includes(i.id));
        return mine.length === ids.length && mine.every((i) => !['pending', 'processing'].includes(i.status))
          ? mine
          : null;
      },
      60_000,
    );

  beforeAll(async () => {
    site = await startSite({
      '/guide': {
        body: articlePage('Recovery Guide', [
          'Sleep is the most underrated recovery tool for athletes of every level and age.',
          'The planted fact: the sauna at our gym is kept at exactly 83 degrees Celsius every afternoon.',
        ]),
      },
      '/hop-to-loopback': () => ({
        status: 302,
        headers: { location: `http://127.0.0.1:${site.port}/guide` },
      }),
      '/held': {
        hold: held,
        body: articlePage('Held page', [
          'The planted fact: the held page speaks of 7 rowing machines in the annex.',
        ]),
      },
      '/slow': {
        delayMs: 1500,
        body: articlePage('Slow page', [
          'The planted fact: the slow page mentions 12 climbing ropes hanging in the hall.',
        ]),
      },
    });
    yt = await startYoutubeStandIn({
      dQw4w9WgXcQ: {
        title: 'Breathing for lifters',
        captions: Array.from({ length: 12 }, (_, i) => ({
          start: i * 10,
          duration: 10,
          text:
            i === 7
              ? 'the planted fact is to exhale through pursed lips at the top of every rep'
              : `caption line ${i} about bracing the core`,
        })),
      },
      noCaptions1: { title: 'A silent video', captions: null },
    });
    t = await startTestApp({ redisPrefix: prefix, env: workerEnv() });
    cookie = await t.signIn(identity('kelly'));
    const image = await uploadAs(t, cookie, PNG_1PX);
    const signup = await api('POST', '/api/creator-signup', {
      chatbotName: 'Kelly bot',
      profileImageUrl: image,
    });
    chatbotId = ((await signup.json()) as { chatbot: { id: string } }).chatbot.id;
    worker = await startWorker(t, prefix, workerEnv());
  });
  afterEach(async () => {
    for (const w of extra.splice(0)) await w.stop('SIGKILL');
  });
  afterAll(async () => {
    releaseHeld();
    await worker?.stop();
    await t?.close();
    await site?.close();
    await yt?.close();
    // BullMQ's keys of this run's prefix.
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('answers its health check', async () => {
    const res = await fetch(`http://127.0.0.1:${worker!.healthPort}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('ingests a page, PDF, DOCX, DOC, TXT and a video until progress is complete, and retrieval finds each planted fact', async () => {
    const ids = [
      await addUrl(local('/guide')),
      await uploadFile(
        makePdf(
          [['Chapter one: warm-up drills.'], ['The planted fact: the coach drinks 3 espressos a day.']],
          { title: 'Handbook' },
        ),
        'handbook.pdf',
      ),
      await uploadFile(
        makeDocx(['Nutrition notes.', 'The planted fact: protein target is 1.6 grams per kilogram.']),
        'nutrition.docx',
      ),
      await uploadFile(wordDocFixture(), 'legacy.doc'),
      await uploadFile(
        Buffer.from('Café notes. The planted fact: the café serves crème brûlée on Fridays.', 'latin1'),
        'cafe.txt',
      ),
      (
        (await (
          await api('POST', `/api/chatbots/${chatbotId}/knowledge/youtube`, {
            youtubeUrl: 'https://youtu.be/dQw4w9WgXcQ?t=5',
          })
        ).json()) as {
          id: string;
        }
      ).id,
    ];
    const done = await settled(ids);
    expect(done.map((i) => [i.type, i.status, i.error])).toEqual([
      ['url', 'completed', null],
      ['file', 'completed', null],
      ['file', 'completed', null],
      ['file', 'completed', null],
      ['file', 'completed', null],
      ['youtube', 'completed', null],
    ]);
    const p = await progress();
    expect(p).toMatchObject({ total: 6, active: 6, pending: 0, progressPercentage: 100, isComplete: true });
    expect(done[0]?.title).toBe('Recovery Guide');
    expect(done[5]?.title).toBe('Breathing for lifters');

    const ask = async (question: string) =>
      (await retrieve(t.db.db, { chatbotId, question, embedder: null }))[0];
    expect((await ask('How hot is the sauna?'))?.content).toContain('83 degrees');
    const pdfHit = await ask('How many espressos does the coach drink?');
    expect(pdfHit?.content).toContain('3 espressos');
    expect(pdfHit?.metadata).toMatchObject({ page: 2 });
    expect((await ask('What is the protein target per kilogram?'))?.content).toContain('1.6 grams');
    expect((await ask('secret ingredient of the legacy cake'))?.content).toContain(WORD_DOC_FACT);
    expect((await ask('When does the café serve crème brûlée?'))?.content).toContain(
      'crème brûlée on Fridays',
    );
    const video = await ask('how should I exhale with pursed lips');
    expect(video?.source).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=dQw4w9WgXcQ&t=\d+s$/);
  });

  it('fails private, loopback, link-local and metadata addresses after DNS and on redirects, with a reason', async () => {
    const before = site.hits.get('/guide') ?? 0;
    const ids = await Promise.all(
      [
        `http://127.0.0.1:${site.port}/guide`,
        'http://10.0.0.1/',
        'http://169.254.169.254/latest/meta-data/',
        `http://[::1]:${site.port}/guide`,
        'http://intranet.fanpilot.test/',
        'http://metadata.fanpilot.test/latest/meta-data/',
        local('/hop-to-loopback'),
      ].map(addUrl),
    );
    const done = await settled(ids);
    for (const item of done) {
      expect(item.status).toBe('failed');
      expect(item.error).toMatch(/private or internal network/);
    }
    expect(site.hits.get('/guide') ?? 0).toBe(before);
    const video = (await (
      await api('POST', `/api/chatbots/${chatbotId}/knowledge/youtube`, {
        youtubeUrl: 'https://www.youtube.com/watch?v=noCaptions1',
      })
    ).json()) as { id: string };
    const [silent] = await settled([video.id]);
    expect(silent).toMatchObject({ status: 'failed', error: 'No transcript available for this video' });
    expect((await progress()).isComplete).toBe(true);
  });

  it('finishes a job in flight on SIGTERM before exiting', async () => {
    await worker!.stop('SIGTERM');
    const graceful = await startWorker(t, prefix, workerEnv());
    const id = await addUrl(local('/slow'));
    await waitFor('processing', async () => (await itemRow(id)).status === 'processing');
    const code = await graceful.stop('SIGTERM');
    expect(code).toBe(0);
    expect(graceful.output()).toContain('shutting down: finishing jobs in flight');
    expect(await itemRow(id)).toMatchObject({ status: 'completed', attempts: 1 });
  });

  it('completes an item once when its worker is killed mid-job', async () => {
    const doomed = await startWorker(t, prefix, workerEnv());
    extra.push(doomed);
    const id = await addUrl(local('/held'));
    await waitFor('processing', async () => (await itemRow(id)).status === 'processing');
    await waitFor('the page request', async () => (site.hits.get('/held') ?? 0) >= 1);
    await doomed.stop('SIGKILL');
    releaseHeld();
    // A worker that finds the item stuck past INGEST_STUCK_AFTER_MS re-queues it under a new run.
    await new Promise((r) => setTimeout(r, 2_500));
    const rescuer = await startWorker(t, prefix, {
      ...workerEnv(),
      INGEST_STUCK_AFTER_MS: '2000',
      INGEST_SWEEP_INTERVAL_MS: '500',
    });
    extra.push(rescuer);
    const row = await waitFor('completion', async () => {
      const r = await itemRow(id);
      return r.status === 'completed' ? r : null;
    });
    expect(row.job_run).toMatch(new RegExp(`^${id}-sweep-`));
    const chunks = await t.db.db
      .selectFrom('chunks')
      .select(['ordinal', 'content'])
      .where('knowledge_item_id', '=', id)
      .orderBy('ordinal')
      .execute();
    expect(chunks.length).toBe(row.chunk_count);
    expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i));
    expect(chunks.filter((c) => c.content.includes('7 rowing machines'))).toHaveLength(1);
    expect(site.hits.get('/held')).toBe(2);
    // The killed run's job, recovered later by BullMQ, finds a newer run in charge and changes nothing.
    expect(
      (await retrieve(t.db.db, { chatbotId, question: 'rowing machines in the annex', embedder: null }))[0]
        ?.knowledgeItemId,
    ).toBe(id);
  });
});
