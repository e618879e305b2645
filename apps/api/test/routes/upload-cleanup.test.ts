import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3 } from '../../src/embedded.ts';
import { sweepUnusedUploads } from '../../src/services/upload-sweep.ts';
import { identity, json, PNG_1PX, startTestApp, type TestApp, uploadAs } from '../helpers.ts';

const HOUR = 60 * 60 * 1000;
const keyOf = (t: TestApp, url: string) => t.storage.keyFromUrl(url)!;

const signup = (t: TestApp, cookie: string, profileImageUrl: string) =>
  fetch(`${t.url}/api/creator-signup`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ chatbotName: 'Cleanup bot', profileImageUrl }),
  });

describe('profile image uploads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lands under uploads/pending/, and a refused upload is deleted as soon as it is checked', async () => {
    const cookie = await t.signIn(identity('petra'));
    const text = await uploadAs(t, cookie, Buffer.from('not an image at all'), 'text/plain');
    expect(keyOf(t, text)).toMatch(/^uploads\/pending\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
    const refused = await signup(t, cookie, text);
    expect(refused.status).toBe(400);
    expect((await json(refused)).error).toBe('not_an_image');
    expect(await t.storage.head(keyOf(t, text))).toBeNull();

    // The specified PUT carries no size: an 11 MB "image" is stored, then refused and deleted.
    const big = Buffer.concat([PNG_1PX, Buffer.alloc(11 * 1024 * 1024)]);
    const large = await uploadAs(t, cookie, big);
    expect((await t.storage.head(keyOf(t, large)))?.contentLength).toBe(big.length);
    const tooLarge = await signup(t, cookie, large);
    expect(tooLarge.status).toBe(400);
    expect((await json(tooLarge)).error).toBe('image_too_large');
    expect(await t.storage.head(keyOf(t, large))).toBeNull();
  });

  it('moves an accepted upload out of uploads/pending/, keeping its id; a double submit is fine', async () => {
    const cookie = await t.signIn(identity('quinn'));
    const image = await uploadAs(t, cookie, PNG_1PX);
    const pending = keyOf(t, image);
    const [first, second] = await Promise.all([signup(t, cookie, image), signup(t, cookie, image)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const { creator } = (await json(first)) as { creator: { profileImageUrl: string } };
    const id = pending.split('/').pop()!;
    expect(creator.profileImageUrl).toMatch(new RegExp(`^/objects/uploads/[0-9a-f-]{36}/${id}$`));
    expect(creator.profileImageUrl).not.toContain('pending');
    expect(await t.storage.head(pending)).toBeNull();
    const served = await fetch(`${t.url}${creator.profileImageUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('eight submits of one upload at once: each is accepted or refused with a 4xx, never a 500', async () => {
    const cookie = await t.signIn(identity('rhea'));
    await signup(t, cookie, await uploadAs(t, cookie, PNG_1PX));
    const image = await uploadAs(t, cookie, PNG_1PX);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${t.url}/api/creators/username/rhea/profile-image`, {
          method: 'PUT',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ profileImageURL: image }),
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses).toContain(200);
    const id = keyOf(t, image).split('/').pop()!;
    const me = (await json(await fetch(`${t.url}/api/creators/username/rhea`, { headers: { cookie } }))) as {
      profileImageUrl: string;
    };
    expect(me.profileImageUrl).toMatch(new RegExp(`/${id}$`));
  });

  it('a replaced profile image is deleted', async () => {
    const cookie = await t.signIn(identity('sven'));
    const first = await signup(t, cookie, await uploadAs(t, cookie, PNG_1PX));
    const before = ((await json(first)) as { creator: { profileImageUrl: string } }).creator.profileImageUrl;
    const res = await fetch(`${t.url}/api/creators/username/sven/profile-image`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ profileImageURL: await uploadAs(t, cookie, PNG_1PX) }),
    });
    expect(res.status).toBe(200);
    const after = ((await json(res)) as { creator: { profileImageUrl: string } }).creator.profileImageUrl;
    expect(after).not.toBe(before);
    expect(await t.storage.head(before.replace(/^\/objects\//, ''))).toBeNull();
    expect(await t.storage.head(after.replace(/^\/objects\//, ''))).not.toBeNull();
  });

  it('the sweep deletes unused uploads older than a day and keeps what is used or recent', async () => {
    const cookie = await t.signIn(identity('rosa'));
    const image = await uploadAs(t, cookie, PNG_1PX);
    const res = await signup(t, cookie, image);
    const { creator } = (await json(res)) as { creator: { id: string; profileImageUrl: string } };
    const used = creator.profileImageUrl.replace(/^\/objects\//, '');
    const unusedPending = keyOf(t, await uploadAs(t, cookie, PNG_1PX));
    const replaced = `uploads/${creator.id}/00000000-0000-4000-8000-000000000001`;
    await t.storage.put(replaced, PNG_1PX, 'image/png');
    const knowledgeUpload = `knowledge-uploads/${creator.id}/00000000-0000-4000-8000-000000000002/a.txt`;
    await t.storage.put(knowledgeUpload, Buffer.from('hello'), 'text/plain');
    const knowledgeFile = 'knowledge/00000000-0000-4000-8000-000000000003/x';
    await t.storage.put(knowledgeFile, Buffer.from('kept'), 'text/plain');

    // Nothing is a day old yet.
    expect(await sweepUnusedUploads(t.db.db, t.storage)).toEqual([]);
    // A day and an hour later.
    const removed = await sweepUnusedUploads(t.db.db, t.storage, { now: Date.now() + 25 * HOUR });
    expect(removed).toEqual(expect.arrayContaining([unusedPending, replaced, knowledgeUpload]));
    expect(removed).not.toContain(used);
    expect(removed).not.toContain(knowledgeFile);
    for (const key of [unusedPending, replaced, knowledgeUpload])
      expect(await t.storage.head(key)).toBeNull();
    for (const key of [used, knowledgeFile]) expect(await t.storage.head(key)).not.toBeNull();
  });
});

describe('knowledge uploads through the widget', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('an upload over 10 MB is deleted as soon as its completion is checked', async () => {
    const cookie = await t.signIn(identity('tomas'));
    await signup(t, cookie, await uploadAs(t, cookie, PNG_1PX));
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${t.url}${path}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const created = await call('POST', '/api/s3/multipart', { filename: 'huge.txt', type: 'text/plain' });
    const { key, uploadId } = (await created.json()) as { key: string; uploadId: string };
    // A part URL cannot hold a part to a size: three parts of 5 MB and a bit make 15 MB.
    const parts: { PartNumber: number; ETag: string }[] = [];
    for (const n of [1, 2, 3]) {
      const signed = await call('GET', `/api/s3/multipart/${uploadId}/${n}?key=${encodeURIComponent(key)}`);
      const { url } = (await signed.json()) as { url: string };
      const put = await fetch(url, { method: 'PUT', body: new Uint8Array(5 * 1024 * 1024 + 10).fill(0x61) });
      expect(put.status).toBe(200);
      parts.push({ PartNumber: n, ETag: put.headers.get('etag')! });
    }
    const done = await call('POST', `/api/s3/multipart/${uploadId}/complete?key=${encodeURIComponent(key)}`, {
      parts,
    });
    expect(done.status).toBe(413);
    expect((await json(done)).error).toBe('file_too_large');
    expect(await t.storage.head(key)).toBeNull();
  });
});

describe('embedded object store CORS', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fanpilot-s3-cors-'));
  let s3: Awaited<ReturnType<typeof startLocalS3>>;
  beforeAll(async () => {
    s3 = await startLocalS3({
      directory: dir,
      bucket: 'cors-test',
      allowedOrigins: ['http://localhost:3000'],
    });
  });
  afterAll(async () => {
    await s3.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const preflight = (origin: string) =>
    fetch(`${s3.endpoint}/cors-test/uploads/pending/x`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });

  it("answers browsers only from the product's own origin, never with *", async () => {
    // The browser's preflight before a PUT: allowed for our origin only (s3rver answers an allowed
    // preflight with `*`; the request itself then names the origin).
    const ours = await preflight('http://localhost:3000');
    expect(ours.status).toBe(200);
    for (const origin of ['https://evil.example', 'http://localhost:3001', 'null']) {
      const theirs = await preflight(origin);
      expect(theirs.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(theirs.status, origin).toBe(403);
    }
    const get = (origin: string) =>
      fetch(`${s3.endpoint}/cors-test/nothing`, { headers: { origin } }).then((r) =>
        r.headers.get('access-control-allow-origin'),
      );
    expect(await get('http://localhost:3000')).toBe('http://localhost:3000');
    expect(await get('https://evil.example')).toBeNull();
  });
});
