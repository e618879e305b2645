import { makePdf } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardedCreator, PNG_1PX, send, startTestApp, type TestApp } from '../helpers.ts';

const MB = 1024 * 1024;

type Params = {
  method: string;
  url: string;
  fields: Record<string, string>;
  headers: Record<string, string>;
};

/** What the widget does for a small file: ask for the form upload, then POST the form to the store. */
async function postForm(params: Params, bytes: Buffer, name: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(params.fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return fetch(params.url, { method: 'POST', body: form });
}

async function itemStatus(t: TestApp, id: string) {
  const row = await t.db.db
    .selectFrom('knowledge_items')
    .select(['status', 'file_key', 'file_name', 'file_size'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row;
}

describe('upload widget calls (S3 through pre-signed requests)', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof onboardedCreator>>;
  let other: Awaited<ReturnType<typeof onboardedCreator>>;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await onboardedCreator(t, 'ursula');
    other = await onboardedCreator(t, 'victor');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('single request: params, POST the form to the store, register it as knowledge', async () => {
    const res = await send(
      t,
      'GET',
      '/api/s3/params?filename=notes%20v1.txt&type=text%2Fplain',
      owner.cookie,
    );
    expect(res.status).toBe(200);
    const params = (await res.json()) as Params;
    expect(params.method).toBe('POST');
    expect(params.url.startsWith(t.s3.endpoint)).toBe(true);
    const key = params.fields.key!;
    expect(key).toMatch(new RegExp(`^knowledge-uploads/${owner.creatorId}/[0-9a-f-]{36}/notes_v1\\.txt$`));
    expect(params.fields['Content-Type']).toBe('text/plain');

    const stored = await postForm(
      params,
      Buffer.from('Stretch for ten minutes before every run.'),
      'notes v1.txt',
    );
    expect(stored.status).toBeLessThan(300);
    expect(await t.storage.head(key)).not.toBeNull();

    const reg = await send(t, 'POST', `/api/chatbots/${owner.chatbotId}/knowledge/uploaded`, owner.cookie, {
      key,
      filename: 'notes v1.txt',
    });
    expect(reg.status).toBe(200);
    const item = (await reg.json()) as { id: string; type: string; title: string; status: string };
    expect(item.type).toBe('file');
    expect(['pending', 'processing']).toContain(item.status);
    const row = await itemStatus(t, item.id);
    expect(row.file_name).toBe('notes v1.txt');
    expect(row.file_key).toBe(`knowledge/${owner.chatbotId}/${item.id}`);
    expect(await t.storage.head(row.file_key!)).not.toBeNull();
    // The upload's own copy is gone; registering it again finds nothing.
    expect(await t.storage.head(key)).toBeNull();
    const again = await send(t, 'POST', `/api/chatbots/${owner.chatbotId}/knowledge/uploaded`, owner.cookie, {
      key,
    });
    expect(again.status).toBe(404);
  });

  it('multipart: create, sign parts, PUT them, complete, register', async () => {
    const created = await send(t, 'POST', '/api/s3/multipart', owner.cookie, {
      filename: 'guide.pdf',
      type: 'application/pdf',
      metadata: { name: 'guide.pdf' },
    });
    expect(created.status).toBe(200);
    const { key, uploadId } = (await created.json()) as { key: string; uploadId: string };
    expect(key).toMatch(new RegExp(`^knowledge-uploads/${owner.creatorId}/[0-9a-f-]{36}/guide\\.pdf$`));
    expect(uploadId).toBeTruthy();

    // A real PDF padded past 5 MB (bytes after %%EOF are ignored by readers): one 5 MB part and the rest.
    const pdf = makePdf([['Hydrate before long runs.']]);
    const whole = Buffer.concat([pdf, Buffer.alloc(5 * MB + 1000 - pdf.length, 0x20)]);
    const chunks = [whole.subarray(0, 5 * MB), whole.subarray(5 * MB)];
    const parts: { PartNumber: number; ETag: string }[] = [];
    for (const [i, chunk] of chunks.entries()) {
      const signed = await send(
        t,
        'GET',
        `/api/s3/multipart/${uploadId}/${i + 1}?key=${encodeURIComponent(key)}`,
        owner.cookie,
      );
      expect(signed.status).toBe(200);
      const { url } = (await signed.json()) as { url: string };
      expect(url.startsWith(t.s3.endpoint)).toBe(true);
      const put = await fetch(url, { method: 'PUT', body: new Uint8Array(chunk) });
      expect(put.status).toBe(200);
      parts.push({ PartNumber: i + 1, ETag: put.headers.get('etag')! });
    }

    // The parts stored so far; a store that cannot list them (the embedded one does not implement
    // ListParts) knows of none, never a 5xx: the widget then simply uploads every part again.
    const listed = await send(
      t,
      'GET',
      `/api/s3/multipart/${uploadId}?key=${encodeURIComponent(key)}`,
      owner.cookie,
    );
    expect(listed.status).toBe(200);
    expect([0, 2]).toContain(((await listed.json()) as unknown[]).length);

    const done = await send(
      t,
      'POST',
      `/api/s3/multipart/${uploadId}/complete?key=${encodeURIComponent(key)}`,
      owner.cookie,
      { parts },
    );
    expect(done.status).toBe(200);
    const completed = (await done.json()) as { key: string; location: string };
    expect(completed.key).toBe(key);
    expect((await t.storage.head(key))?.contentLength).toBe(whole.length);

    const reg = await send(t, 'POST', `/api/chatbots/${owner.chatbotId}/knowledge/uploaded`, owner.cookie, {
      key,
      filename: 'guide.pdf',
    });
    expect(reg.status).toBe(200);
    const item = (await reg.json()) as { id: string; status: string };
    expect(['pending', 'processing']).toContain(item.status);
  });

  it('a pre-signed part URL expires', async () => {
    const created = await send(t, 'POST', '/api/s3/multipart', owner.cookie, { filename: 'late.txt' });
    const { key, uploadId } = (await created.json()) as { key: string; uploadId: string };
    const url = await t.storage.multipart.presignPart(key, uploadId, 1, 1);
    await new Promise((r) => setTimeout(r, 2100));
    const put = await fetch(url, { method: 'PUT', body: 'too late' });
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('Request has expired');
  });

  it('abort answers for the owner; another creator cannot touch the upload', async () => {
    const created = await send(t, 'POST', '/api/s3/multipart', owner.cookie, { filename: 'drop.docx' });
    const { key, uploadId } = (await created.json()) as { key: string; uploadId: string };
    const q = `?key=${encodeURIComponent(key)}`;
    for (const [method, path] of [
      ['GET', `/api/s3/multipart/${uploadId}${q}`],
      ['GET', `/api/s3/multipart/${uploadId}/1${q}`],
      ['DELETE', `/api/s3/multipart/${uploadId}${q}`],
    ] as const) {
      const res = await send(t, method, path, other.cookie);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe('forbidden');
    }
    const complete = await send(t, 'POST', `/api/s3/multipart/${uploadId}/complete${q}`, other.cookie, {
      parts: [{ PartNumber: 1, ETag: '"x"' }],
    });
    expect(complete.status).toBe(403);
    const register = await send(
      t,
      'POST',
      `/api/chatbots/${other.chatbotId}/knowledge/uploaded`,
      other.cookie,
      {
        key,
      },
    );
    expect(register.status).toBe(403);
    // Keys not made by us are refused the same way.
    const foreign = await send(
      t,
      'GET',
      `/api/s3/multipart/${uploadId}/1?key=${encodeURIComponent('uploads/anything')}`,
      owner.cookie,
    );
    expect(foreign.status).toBe(403);

    const aborted = await send(t, 'DELETE', `/api/s3/multipart/${uploadId}${q}`, owner.cookie);
    expect(aborted.status).toBe(200);
    expect(await t.storage.head(key)).toBeNull();
  });

  it('signed out: 401 for every call', async () => {
    const key = encodeURIComponent(`knowledge-uploads/${owner.creatorId}/x/y.txt`);
    for (const [method, path, body] of [
      ['GET', '/api/s3/params?filename=a.txt&type=text/plain', undefined],
      ['GET', '/api/s3/sts', undefined],
      ['POST', '/api/s3/multipart', { filename: 'a.txt', type: 'text/plain' }],
      ['GET', `/api/s3/multipart/abc?key=${key}`, undefined],
      ['GET', `/api/s3/multipart/abc/1?key=${key}`, undefined],
      ['POST', `/api/s3/multipart/abc/complete?key=${key}`, { parts: [] }],
      ['DELETE', `/api/s3/multipart/abc?key=${key}`, undefined],
      ['POST', `/api/chatbots/${owner.chatbotId}/knowledge/uploaded`, { key: 'k' }],
    ] as const) {
      const res = await send(t, method, path, '', body);
      expect(res.status, `${method} ${path}`).toBe(401);
      const answer = (await res.json()) as { error: string; message: string };
      expect(answer.error).toBe('unauthorized');
      expect(answer.message).toBeTruthy();
    }
  });

  it('refuses bad file names, types and part numbers (400), and says sts is not supported', async () => {
    for (const query of [
      'filename=photo.png&type=image/png',
      'filename=notes.txt&type=image/png',
      'filename=noextension&type=text/plain',
      'type=text/plain',
    ]) {
      const res = await send(t, 'GET', `/api/s3/params?${query}`, owner.cookie);
      expect(res.status, query).toBe(400);
    }
    for (const body of [{ filename: 'tool.exe' }, { filename: 'a.pdf', type: 'text/html' }, {}]) {
      const res = await send(t, 'POST', '/api/s3/multipart', owner.cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const created = await send(t, 'POST', '/api/s3/multipart', owner.cookie, { filename: 'a.txt' });
    const { key, uploadId } = (await created.json()) as { key: string; uploadId: string };
    const q = `?key=${encodeURIComponent(key)}`;
    for (const n of ['0', '10001', '1.5', 'x']) {
      const res = await send(t, 'GET', `/api/s3/multipart/${uploadId}/${n}${q}`, owner.cookie);
      expect(res.status, n).toBe(400);
    }
    expect((await send(t, 'GET', `/api/s3/multipart/${uploadId}/10000${q}`, owner.cookie)).status).toBe(200);
    const noKey = await send(t, 'GET', `/api/s3/multipart/${uploadId}/1`, owner.cookie);
    expect(noKey.status).toBe(400);
    const badParts = await send(t, 'POST', `/api/s3/multipart/${uploadId}/complete${q}`, owner.cookie, {
      parts: [{ PartNumber: 0, ETag: '"x"' }],
    });
    expect(badParts.status).toBe(400);
    // No temporary credentials: a 4xx that says so, never a 5xx.
    const sts = await send(t, 'GET', '/api/s3/sts', owner.cookie);
    expect(sts.status).toBe(404);
    expect(await sts.json()).toEqual({
      error: 'not_supported',
      message: expect.stringContaining('Temporary storage credentials are not issued'),
    });
  });

  it('registering checks the object: by content, and only existing ones', async () => {
    // A PNG put in as a .pdf is refused as the form upload refuses it, and its copy removed.
    const res = await send(t, 'GET', '/api/s3/params?filename=fake.pdf&type=application/pdf', owner.cookie);
    const params = (await res.json()) as Params;
    expect((await postForm(params, PNG_1PX, 'fake.pdf')).status).toBeLessThan(300);
    const key = params.fields.key!;
    const reg = await send(t, 'POST', `/api/chatbots/${owner.chatbotId}/knowledge/uploaded`, owner.cookie, {
      key,
      filename: 'fake.pdf',
    });
    expect(reg.status).toBe(400);
    expect(((await reg.json()) as { error: string }).error).toBe('unsupported_file');
    expect(await t.storage.head(key)).toBeNull();

    const missing = await send(
      t,
      'POST',
      `/api/chatbots/${owner.chatbotId}/knowledge/uploaded`,
      owner.cookie,
      {
        key: `knowledge-uploads/${owner.creatorId}/00000000-0000-4000-8000-000000000000/none.txt`,
      },
    );
    expect(missing.status).toBe(404);
    // Someone else's chatbot: 403.
    const foreignBot = await send(
      t,
      'POST',
      `/api/chatbots/${other.chatbotId}/knowledge/uploaded`,
      owner.cookie,
      {
        key,
      },
    );
    expect(foreignBot.status).toBe(403);
  });
});
