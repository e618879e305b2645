import { Readable } from 'node:stream';
import { STORE_BATCH_SIZE, storeChunks } from '@fanpilot/core';
import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import type { Storage } from '@fanpilot/storage';
import {
  articlePage,
  type LoopbackServer,
  makeDocx,
  makePdf,
  makePdfBomb,
  seedChatbot,
  startEmbeddingServer,
  startSite,
  startYoutubeStandIn,
} from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { windowTextsOf } from '../focus.ts';
import { retrieve } from '../retrieve.ts';
import { loadIngestEnv } from './config.ts';
import { createEmbedder } from './embeddings.ts';
import { createIngestHandler, type IngestHandler } from './handler.ts';
import { tooLargeReason } from './pool.ts';
import { STUCK_REASON, sweepStuckItems } from './sweeper.ts';
import { NO_TRANSCRIPT } from './youtube.ts';

const objects = new Map<string, Buffer>();
const storage: Pick<Storage, 'get'> = {
  async get(key) {
    const body = objects.get(key);
    if (!body) return null;
    return {
      body: Readable.from([body]),
      contentType: undefined,
      contentLength: body.length,
      etag: undefined,
    };
  },
};

const VIDEO = 'abcdefghijk';

describe('ingest handler (PGlite, loopback sites)', () => {
  let h: DbHandle;
  let site: LoopbackServer;
  let yt: LoopbackServer;
  let embeddings: Awaited<ReturnType<typeof startEmbeddingServer>>;
  let ingest: IngestHandler;
  let embeddingIngest: IngestHandler;
  let chatbotId: string;
  const ctx = { attempt: 1, jobId: undefined };

  beforeAll(async () => {
    h = createDb({ dataDir: 'memory://' });
    await migrateToLatest(h.db);
    chatbotId = await seedChatbot(h.db);
    let version = 1;
    site = await startSite({
      '/guide': () => ({
        body: articlePage('Recovery Guide', [
          `Version ${version++} of this guide. Sleep is the most underrated recovery tool for athletes of every level.`,
          'The planted fact: the sauna at our gym is kept at exactly 83 degrees Celsius every afternoon.',
        ]),
      }),
      '/busy': { status: 503 },
      '/static': {
        body: articlePage('Static page', [
          'This page never changes: the studio opens at seven and the sauna is kept at 83 degrees.',
        ]),
      },
      '/fleet': {
        body: articlePage('Our fleet', [
          'Our studio van is an automobile painted bright orange so members can spot it from far away in the lot. It seats nine riders and their bags.',
          'The second vehicle is a small electric car we use for errands in town. It charges overnight in the garage behind the studio.',
          'Every Friday the coach washes both of them by hand before the weekend trips. Members are welcome to help and get a free coffee for it.',
          'We bought the van second hand from a school in the next town. It still has the old school crest on the back door.',
        ]),
      },
      '/cars': {
        body: articlePage('Vehicles', [
          'Our studio van is an automobile painted bright orange so members can spot it from far away in the lot.',
        ]),
      },
      ...Object.fromEntries(
        [1, 2, 3, 4, 5].map((n) => [
          `/p${n}`,
          {
            body: articlePage(`Page ${n}`, [
              `Sitemap page number ${n} talks about lunges and step-ups for strong legs.`,
            ]),
          },
        ]),
      ),
    });
    yt = await startYoutubeStandIn({
      [VIDEO]: {
        title: 'Breathing for lifters',
        captions: Array.from({ length: 30 }, (_, i) => ({
          start: i * 6,
          duration: 6,
          text:
            i === 20
              ? 'the planted fact is to exhale through pursed lips at the top'
              : `caption line ${i} about bracing`,
        })),
      },
      silentVide1: { title: 'Silent', captions: null },
    });
    embeddings = await startEmbeddingServer([['car', 'automobile', 'vehicle', 'van']]);
    const env = loadIngestEnv({
      INGEST_ALLOWED_PRIVATE_HOSTS: 'localhost',
      INGEST_SITEMAP_MAX_PAGES: '3',
      INGEST_YOUTUBE_ORIGIN: yt.url,
      INGEST_FETCH_TIMEOUT_MS: '3000',
    });
    ingest = createIngestHandler({
      db: h.db,
      storage: storage as Storage,
      env,
      maxAttempts: 3,
      embedder: null,
    });
    embeddingIngest = createIngestHandler({
      db: h.db,
      storage: storage as Storage,
      env,
      embedder: createEmbedder({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${embeddings.url}/v1` }),
    });
  });
  afterAll(async () => {
    await ingest?.close();
    await embeddingIngest?.close();
    await h?.close();
    await site?.close();
    await yt?.close();
    await embeddings?.close();
  });

  const local = (path: string) => `http://localhost:${site.port}${path}`;
  const addItem = async (values: {
    type: 'url' | 'file' | 'youtube';
    url?: string;
    youtube_url?: string;
    file_name?: string;
    file_key?: string;
  }) => {
    const id = crypto.randomUUID();
    await h.db
      .insertInto('knowledge_items')
      .values({ id, chatbot_id: chatbotId, job_run: id, ...values })
      .execute();
    return id;
  };
  const item = (id: string) =>
    h.db.selectFrom('knowledge_items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** The ingest jobs the item's writes committed to the job outbox, oldest first. */
  const ingestJobsOf = async (id: string) =>
    (
      await h.db
        .selectFrom('job_outbox')
        .select('payload')
        .where('name', '=', 'knowledge-ingest')
        .where(sql<string>`payload->>'knowledgeItemId'`, '=', id)
        .orderBy('id')
        .execute()
    ).map((row) => row.payload as { knowledgeItemId: string; run: string });
  const chunks = (id: string) =>
    h.db
      .selectFrom('chunks')
      .select(['ordinal', 'content', 'metadata'])
      .where('knowledge_item_id', '=', id)
      .orderBy('ordinal')
      .execute();

  it('turns a web page into chunks and completes it; a second run replaces, never duplicates', async () => {
    const id = await addItem({ type: 'url', url: local('/guide') });
    await ingest({ knowledgeItemId: id, run: id }, ctx);
    const done = await item(id);
    expect(done).toMatchObject({ status: 'completed', error: null, title: 'Recovery Guide', attempts: 1 });
    const first = await chunks(id);
    expect(first.length).toBeGreaterThan(0);
    expect(first.map((c) => c.content).join(' ')).toContain('83 degrees');
    expect(first[0]?.metadata).toMatchObject({
      type: 'url',
      source: local('/guide'),
      title: 'Recovery Guide',
    });
    expect(done.chunk_count).toBe(first.length);

    // The same run delivered again changes nothing.
    await ingest({ knowledgeItemId: id, run: id }, ctx);
    expect((await item(id)).attempts).toBe(1);
    // A re-sync (new run) picks up the change and replaces the chunks.
    await h.db
      .updateTable('knowledge_items')
      .set({ job_run: `${id}-resync-1`, status: 'pending' })
      .where('id', '=', id)
      .execute();
    await ingest({ knowledgeItemId: id, run: `${id}-resync-1` }, ctx);
    const again = await chunks(id);
    expect(again).toHaveLength(first.length);
    expect(again.map((c) => c.content).join(' ')).toContain('Version 2');

    const hits = await retrieve(h.db, { chatbotId, question: 'How hot is the sauna?', embedder: null });
    expect(hits[0]).toMatchObject({ knowledgeItemId: id, title: 'Recovery Guide' });
    expect(hits[0]?.content).toContain('83 degrees');
  });

  it('a re-sync that finds the same content keeps its chunks: nothing deleted, re-inserted or re-embedded', async () => {
    const chunkIds = (id: string) =>
      h.db.selectFrom('chunks').select('id').where('knowledge_item_id', '=', id).orderBy('id').execute();
    const resync = async (id: string, n: number, run = embeddingIngest) => {
      await h.db
        .updateTable('knowledge_items')
        .set({ job_run: `${id}-resync-${n}`, status: 'pending' })
        .where('id', '=', id)
        .execute();
      await run({ knowledgeItemId: id, run: `${id}-resync-${n}` }, ctx);
    };
    const id = await addItem({ type: 'url', url: local('/static') });
    await embeddingIngest({ knowledgeItemId: id, run: id }, ctx);
    const first = await item(id);
    expect(first.status).toBe('active');
    expect(first.content_hash).toMatch(/^[0-9a-f]{64}:text-embedding-3-small$/);
    const ids = await chunkIds(id);
    const embedCalls = embeddings.requests();

    await resync(id, 1);
    const again = await item(id);
    expect(again).toMatchObject({ status: 'active', error: null, content_hash: first.content_hash });
    expect(new Date(again.processed_at!).getTime()).toBeGreaterThanOrEqual(
      new Date(first.processed_at!).getTime(),
    );
    expect(await chunkIds(id)).toEqual(ids);
    expect(embeddings.requests()).toBe(embedCalls);

    // Without the embedding model the content is the same but the chunks' vectors would not be: the
    // key differs, so the chunks are made again (full text only).
    await resync(id, 2, ingest);
    expect((await item(id)).status).toBe('completed');
    expect(await chunkIds(id)).not.toEqual(ids);
  });

  it('ignores a run that a newer one superseded, and an item deleted meanwhile', async () => {
    const id = await addItem({ type: 'url', url: local('/guide') });
    await h.db.updateTable('knowledge_items').set({ job_run: 'newer-run' }).where('id', '=', id).execute();
    await ingest({ knowledgeItemId: id, run: id }, ctx);
    expect(await item(id)).toMatchObject({ status: 'pending', attempts: 0 });
    await ingest({ knowledgeItemId: crypto.randomUUID(), run: 'x' }, ctx);
  });

  it('reads a website: the page, then the same-site pages it links to, as robots.txt allows (issue 29)', async () => {
    const page = (title: string, text: string, links: string) =>
      `<!doctype html><html><head><title>${title}</title></head><body><nav>${links}</nav><main><article><h1>${title}</h1><p>${text}</p></article></main></body></html>`;
    const web = await startSite({
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nDisallow: /private\n',
      },
      '/about.html': {
        body: page(
          'About the bakery',
          'We bake rye and sourdough loaves every single morning in our small neighbourhood bakery.',
          '<a href="team.html">Team</a> <a href="/prices.html#bread">Prices</a> <a href="/private/notes.html">Notes</a> <a href="https://elsewhere.example/">Elsewhere</a> <a href="mailto:x@y.z">Mail</a>',
        ),
      },
      '/team.html': {
        body: page(
          'Team',
          'Our head baker Mina has shaped loaves for twenty years in three different countries.',
          '<a href="/about.html">About</a>',
        ),
      },
      '/prices.html': {
        body: page(
          'Prices',
          'A rye loaf costs four euros and a sourdough loaf costs five euros fifty at the counter.',
          '',
        ),
      },
      '/private/notes.html': {
        body: page('Notes', 'Secret notes that robots.txt keeps out of every crawler.', ''),
      },
      '/private/start.html': { body: page('Hidden', 'A page the site asks robots not to read at all.', '') },
    });
    try {
      const at = (path: string) => `http://localhost:${web.port}${path}`;
      const id = await addItem({ type: 'url', url: at('/about.html') });
      await ingest({ knowledgeItemId: id, run: id }, ctx);
      const done = await item(id);
      expect(done.status).toBe('completed');
      expect(done.title).toBe('About the bakery (3 pages)');
      const pages = new Set((await chunks(id)).map((c) => (c.metadata as { url: string }).url));
      expect(pages).toEqual(new Set([at('/about.html'), at('/team.html'), at('/prices.html')]));
      expect(web.hits.get('/private/notes.html')).toBeUndefined();
      // Each chunk carries its own page's address and <title>; a passage from one page is found,
      // and cited, as that page, not as the site's "(3 pages)" (record 0073).
      const prices = (await chunks(id)).find((c) => /rye loaf costs/.test(c.content));
      expect(prices?.metadata).toMatchObject({ url: at('/prices.html'), title: 'Prices' });
      const found = await retrieve(h.db, {
        chatbotId,
        question: 'How much does a rye loaf cost?',
        embedder: null,
        limit: 1,
      });
      expect(found[0]).toMatchObject({ knowledgeItemId: id, title: 'Prices', source: at('/prices.html') });

      // A page robots.txt disallows is refused for good, with the reason.
      const refused = await addItem({ type: 'url', url: at('/private/start.html') });
      await ingest({ knowledgeItemId: refused, run: refused }, ctx);
      expect(await item(refused)).toMatchObject({ status: 'failed' });
      expect((await item(refused)).error).toMatch(/robots\.txt/);
      // For good: the dashboard offers no Retry.
      expect((await item(refused)).failed_for_good).toBe(true);
      expect(web.hits.get('/private/start.html')).toBeUndefined();
    } finally {
      await web.close();
    }
  });

  it('brings in a sitemap up to the cap', async () => {
    // The sitemap's page addresses need the site's port.
    const sitemapBody = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
      1, 2, 3, 4, 5,
    ]
      .map((n) => `<url><loc>${local(`/p${n}`)}</loc></url>`)
      .join('')}</urlset>`;
    const sm = await startSite({
      '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: sitemapBody },
    });
    try {
      const id = await addItem({ type: 'url', url: `http://localhost:${sm.port}/sitemap.xml` });
      await ingest({ knowledgeItemId: id, run: id }, ctx);
      const done = await item(id);
      expect(done.status).toBe('completed');
      expect(done.title).toMatch(/^Sitemap of localhost:\d+ \(3 of 3 pages\)$/);
      const pages = new Set((await chunks(id)).map((c) => (c.metadata as { url: string }).url));
      expect(pages).toEqual(new Set([local('/p1'), local('/p2'), local('/p3')]));
      expect(site.hits.get('/p4')).toBeUndefined();
    } finally {
      await sm.close();
    }
  });

  it.each([
    ['http://10.0.0.1/'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://127.0.0.1/'],
    ['http://[::1]/'],
  ])('fails %s for good with a reason, without retrying', async (url) => {
    const id = await addItem({ type: 'url', url });
    await ingest({ knowledgeItemId: id, run: id }, ctx);
    const failed = await item(id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/private or internal network/);
  });

  it('asks for a retry on a busy site, and fails on the last attempt', async () => {
    const id = await addItem({ type: 'url', url: local('/busy') });
    await expect(ingest({ knowledgeItemId: id, run: id }, { attempt: 1, jobId: id })).rejects.toThrow(
      /unavailable/,
    );
    expect(await item(id)).toMatchObject({ status: 'pending' });
    await ingest({ knowledgeItemId: id, run: id }, { attempt: 3, jobId: id });
    expect(await item(id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/unavailable right now \(503\)/),
      // Tries ran out on a passing trouble: Retry may help.
      failed_for_good: false,
    });
  });

  it('reads uploaded files from storage; a bad one fails with its reason', async () => {
    objects.set('k/pdf', makePdf([['Page one intro'], ['The planted fact: rest 90 seconds between sets.']]));
    const pdf = await addItem({ type: 'file', file_name: 'plan.pdf', file_key: 'k/pdf' });
    await ingest({ knowledgeItemId: pdf, run: pdf }, ctx);
    expect(await item(pdf)).toMatchObject({ status: 'completed', title: null });
    const fact = (await chunks(pdf)).find((c) => c.content.includes('90 seconds'));
    expect(fact?.metadata).toMatchObject({ page: 2, fileName: 'plan.pdf', type: 'file' });

    objects.set('k/fake', makeDocx(['not a pdf']));
    const fake = await addItem({ type: 'file', file_name: 'fake.pdf', file_key: 'k/fake' });
    await ingest({ knowledgeItemId: fake, run: fake }, ctx);
    expect(await item(fake)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/not a real PDF/),
    });

    const gone = await addItem({ type: 'file', file_name: 'gone.pdf', file_key: 'k/none' });
    await ingest({ knowledgeItemId: gone, run: gone }, ctx);
    expect(await item(gone)).toMatchObject({ status: 'failed', error: expect.stringMatching(/missing/) });
  });

  it('a PDF bomb fails its item with the memory reason, and the next file still goes through', async () => {
    const capped = createIngestHandler({
      db: h.db,
      storage: storage as Storage,
      env: loadIngestEnv({ INGEST_PARSER_MEMORY_MB: '64' }),
      embedder: null,
    });
    try {
      objects.set('k/bomb', await makePdfBomb(300));
      const id = await addItem({ type: 'file', file_name: 'course.pdf', file_key: 'k/bomb' });
      await capped({ knowledgeItemId: id, run: id }, ctx);
      expect(await item(id)).toMatchObject({
        status: 'failed',
        error: 'This file is too large or complex to read (it needed more than 64 MB).',
      });
      expect((await item(id)).error).toBe(tooLargeReason(64));
      expect(await chunks(id)).toEqual([]);
      objects.set('k/after-bomb', makePdf([['A normal handbook after the bomb.']]));
      const next = await addItem({ type: 'file', file_name: 'handbook.pdf', file_key: 'k/after-bomb' });
      await capped({ knowledgeItemId: next, run: next }, ctx);
      expect((await item(next)).status).toBe('completed');
    } finally {
      await capped.close();
    }
  });

  it('stores a long source in bounded batches, pausing between them; a newer run stops the rest', async () => {
    const draft = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => ({
        content: `${tag} chunk ${i} about tempo squats`,
        metadata: { page: i + 1 },
      }));
    const id = await addItem({ type: 'file', file_name: 'long.pdf', file_key: 'k/none' });
    await h.db.updateTable('knowledge_items').set({ status: 'processing' }).where('id', '=', id).execute();
    // Old chunks of an earlier run, to be replaced.
    expect(
      await storeChunks(h.db, {
        itemId: id,
        run: id,
        chunks: draft(3, 'old'),
        embeddings: null,
        title: null,
      }),
    ).toBe('stored');
    await h.db.updateTable('knowledge_items').set({ status: 'processing' }).where('id', '=', id).execute();
    const seen: number[] = [];
    const total = STORE_BATCH_SIZE * 2 + 7;
    const stored = await storeChunks(
      h.db,
      { itemId: id, run: id, chunks: draft(total, 'new'), embeddings: null, title: null },
      {
        pause: async () => {
          seen.push((await chunks(id)).length);
          // While batches are written the item is not ready, so search does not read it half-done.
          expect((await item(id)).status).toBe('processing');
        },
      },
    );
    expect(stored).toBe('stored');
    // One pause after clearing the old chunks, then one after each batch: never one statement for all.
    expect(seen).toEqual([0, STORE_BATCH_SIZE, STORE_BATCH_SIZE * 2, total]);
    const kept = await chunks(id);
    expect(kept.map((c) => c.ordinal)).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(kept.every((c) => c.content.startsWith('new'))).toBe(true);
    expect(await item(id)).toMatchObject({ status: 'completed', chunk_count: total });

    // A newer run claims the item between two batches: the older run writes nothing more.
    await h.db.updateTable('knowledge_items').set({ status: 'processing' }).where('id', '=', id).execute();
    let pauses = 0;
    const superseded = await storeChunks(
      h.db,
      { itemId: id, run: id, chunks: draft(total, 'stale'), embeddings: null, title: null },
      {
        pause: async () => {
          if (++pauses === 2) {
            await h.db
              .updateTable('knowledge_items')
              .set({ job_run: `${id}-newer` })
              .where('id', '=', id)
              .execute();
          }
        },
      },
    );
    expect(superseded).toBe('superseded');
    expect((await chunks(id)).length).toBe(STORE_BATCH_SIZE);
    expect((await item(id)).status).toBe('processing');
  });

  it('reads a YouTube transcript with its title and timestamps; no captions fails with the no-captions message', async () => {
    const id = await addItem({ type: 'youtube', youtube_url: `https://www.youtube.com/watch?v=${VIDEO}` });
    await ingest({ knowledgeItemId: id, run: id }, ctx);
    expect(await item(id)).toMatchObject({ status: 'completed', title: 'Breathing for lifters' });
    const fact = (await chunks(id)).find((c) => c.content.includes('pursed lips'));
    expect(fact?.metadata).toMatchObject({ videoId: VIDEO, title: 'Breathing for lifters' });
    const start = (fact!.metadata as { start: number }).start;
    expect(start).toBeLessThanOrEqual(120);
    expect((fact!.metadata as { timestampUrl: string }).timestampUrl).toBe(
      `https://www.youtube.com/watch?v=${VIDEO}&t=${start}s`,
    );
    const hits = await retrieve(h.db, {
      chatbotId,
      question: 'how to exhale with pursed lips',
      embedder: null,
    });
    expect(hits[0]?.source).toMatch(/watch\?v=abcdefghijk&t=\d+s/);

    const silent = await addItem({ type: 'youtube', youtube_url: 'https://youtu.be/silentVide1' });
    await ingest({ knowledgeItemId: silent, run: silent }, ctx);
    expect(await item(silent)).toMatchObject({ status: 'failed', error: NO_TRANSCRIPT });
  });

  it('embeds where vectors exist (active), and retrieval fuses vector similarity with full text', async () => {
    expect(await h.hasVector()).toBe(true);
    const id = await addItem({ type: 'url', url: local('/cars') });
    await embeddingIngest({ knowledgeItemId: id, run: id }, ctx);
    expect(await item(id)).toMatchObject({ status: 'active' });
    const stored = await sql<{
      n: number;
    }>`select count(*)::int as n from chunks where knowledge_item_id = ${id} and embedding is not null`.execute(
      h.db,
    );
    expect(stored.rows[0]?.n).toBeGreaterThan(0);

    // "car" is not in the page ("automobile" is): full text alone finds nothing, vectors do.
    const embedder = createEmbedder({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${embeddings.url}/v1` });
    expect(await retrieve(h.db, { chatbotId, question: 'car', embedder: null })).toEqual([]);
    const hits = await retrieve(h.db, { chatbotId, question: 'car', embedder });
    expect(hits[0]).toMatchObject({ knowledgeItemId: id, title: 'Vehicles' });
    expect(hits[0]?.content).toContain('automobile');
  });

  it("stores a long chunk's two-sentence windows with its vectors, and deletes them with the item (record 0090)", async () => {
    const id = await addItem({ type: 'url', url: local('/fleet') });
    await embeddingIngest({ knowledgeItemId: id, run: id }, ctx);
    expect(await item(id)).toMatchObject({ status: 'active', windowed: true });
    const stored = await chunks(id);
    const expected = stored.reduce((n, c) => n + windowTextsOf(c.content).length, 0);
    expect(expected).toBeGreaterThan(2);
    const windowsOf = async () =>
      (
        await sql<{ n: number; dims: number | null; chatbots: string[] }>`
          select count(*)::int as n, max(vector_dims(w.embedding)) as dims,
            array_agg(distinct w.chatbot_id::text) as chatbots
          from chunk_windows w join chunks c on c.id = w.chunk_id
          where c.knowledge_item_id = ${id}`.execute(h.db)
      ).rows[0]!;
    expect(await windowsOf()).toMatchObject({ n: expected, chatbots: [chatbotId] });
    // A second run replaces them with its chunks, never duplicates them.
    await h.db
      .updateTable('knowledge_items')
      .set({ status: 'pending', content_hash: null })
      .where('id', '=', id)
      .execute();
    await embeddingIngest({ knowledgeItemId: id, run: id }, ctx);
    expect((await windowsOf()).n).toBe(expected);
    // Deleted with their item (its chunks).
    await h.db.deleteFrom('knowledge_items').where('id', '=', id).execute();
    const left = await sql<{ n: number }>`select count(*)::int as n from chunk_windows w
      where not exists (select 1 from chunks c where c.id = w.chunk_id)`.execute(h.db);
    expect(left.rows[0]?.n).toBe(0);
    expect((await windowsOf()).n).toBe(0);
  });

  it('sweeps items stuck in processing: re-queued under a new run, or failed after their attempts', async () => {
    const stuck = await addItem({ type: 'url', url: local('/guide') });
    const spent = await addItem({ type: 'url', url: local('/guide') });
    const longAgo = new Date(Date.now() - 3_600_000);
    await h.db
      .updateTable('knowledge_items')
      .set({ status: 'processing', updated_at: longAgo, attempts: 1 })
      .where('id', '=', stuck)
      .execute();
    await h.db
      .updateTable('knowledge_items')
      .set({ status: 'processing', updated_at: longAgo, attempts: 5 })
      .where('id', '=', spent)
      .execute();
    const result = await sweepStuckItems(h.db, { stuckAfterMs: 60_000, maxAttempts: 5 });
    expect(result).toEqual({ requeued: 1, failed: 1 });
    // The new run asked for its job in the same statement (record 0077).
    const jobs = await ingestJobsOf(stuck);
    expect(jobs).toEqual([
      { knowledgeItemId: stuck, run: stuck },
      { knowledgeItemId: stuck, run: expect.stringMatching(new RegExp(`^${stuck}-sweep-`)) },
    ]);
    const run = jobs[1]!.run;
    expect(await item(stuck)).toMatchObject({ status: 'pending', job_run: run });
    expect(await item(spent)).toMatchObject({ status: 'failed', error: STUCK_REASON });
    expect(await ingestJobsOf(spent)).toEqual([{ knowledgeItemId: spent, run: spent }]);
    // The re-queued run completes it.
    await ingest({ knowledgeItemId: stuck, run }, ctx);
    expect((await item(stuck)).status).toBe('completed');
  });

  it('an item added asks for its ingest job in its own transaction: none when it rolls back', async () => {
    const kept = await addItem({ type: 'url', url: local('/guide') });
    expect(await ingestJobsOf(kept)).toEqual([{ knowledgeItemId: kept, run: kept }]);
    const dropped = crypto.randomUUID();
    await expect(
      h.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('knowledge_items')
          .values({ id: dropped, chatbot_id: chatbotId, type: 'url', url: local('/guide'), job_run: dropped })
          .execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await ingestJobsOf(dropped)).toEqual([]);
  });
});
