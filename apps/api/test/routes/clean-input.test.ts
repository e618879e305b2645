import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PARAM_LENGTH, MAX_URL_LENGTH } from '../../src/plugins/clean-input.ts';
import {
  call,
  FanBrowser,
  json,
  onboard,
  PNG_1PX,
  startTestApp,
  type TestApp,
  uploadAs,
} from '../helpers.ts';

/** One request written byte for byte on a TCP connection; the status of its answer. */
function rawStatus(t: TestApp, requestLine: string, headers: string[] = []): Promise<number> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        Buffer.from(
          `${[requestLine, 'Host: 127.0.0.1', 'Connection: close', ...headers].join('\r\n')}\r\n\r\n`,
          'latin1',
        ),
      );
    });
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
  });
}

describe('clean input: one rule for text in paths, queries, bodies, multipart and cookies', () => {
  let t: TestApp;
  let alice: string;
  let chatbotId: string;
  beforeAll(async () => {
    t = await startTestApp();
    alice = await onboard(t, 'alice');
    chatbotId = (
      (await (await call(t, 'GET', '/api/creators/username/alice/chatbot', alice)).json()) as { id: string }
    ).id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a NUL or a lone surrogate in a JSON body, at any depth, naming the field (also signed out)', async () => {
    const nul = await call(t, 'POST', '/api/ask', '', {
      creator: 'alice',
      message: 'hi\u0000',
      fanId: 'mobile_fan_a1',
    });
    expect(nul.status).toBe(400);
    const body = await json(nul);
    expect(body).toMatchObject({ error: 'invalid_text', field: 'message' });
    expect(body.message).toContain("'message'");
    expect(body.message).toContain('NUL');

    // A lone surrogate arrives as a JSON escape; JSON.stringify keeps it escaped.
    const lone = await call(
      t,
      'POST',
      '/api/ask',
      '',
      '{"creator":"alice","message":"hi \\ud800","fanId":"mobile_fan_a1"}',
    );
    expect(lone.status).toBe(400);
    expect(await json(lone)).toMatchObject({ error: 'invalid_text', field: 'message' });

    const deep = await call(t, 'PUT', `/api/chatbots/${chatbotId}/settings`, alice, {
      name: 'Bot',
      instructions: 'Be kind',
      model: 'gpt-4o-mini',
      temp: 0.5,
      initialMessages: ['Hello', 'bad \u0000 one'],
    });
    expect(deep.status).toBe(400);
    expect(await json(deep)).toMatchObject({ error: 'invalid_text', field: 'initialMessages.1' });

    // A key breaks the rule as much as a value.
    const key = await call(t, 'POST', '/api/s3/multipart', alice, {
      filename: 'a.pdf',
      metadata: { 'na\u0000me': 'x' },
    });
    expect(key.status).toBe(400);
    expect((await json(key)).error).toBe('invalid_text');

    // Surrogates in pairs (emoji) are text like any other.
    const fan = new FanBrowser(t);
    const ok = await fan.ask('alice', 'Thanks 😀👍');
    expect(ok.status).toBe(200);
    expect((await fan.messages('alice'))[0]?.message).toBe('Thanks 😀👍');

    // Nothing was stored for the refused questions.
    const stored = await t.db.db.selectFrom('messages').select('body').execute();
    expect(stored.map((m) => m.body)).toEqual(['Thanks 😀👍']);
  });

  it('refuses a JSON body nested deeper than any call needs', async () => {
    const res = await call(
      t,
      'POST',
      '/api/ask',
      '',
      `{"creator":"alice","x":${'['.repeat(500)}${']'.repeat(500)}}`,
    );
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe('too_deep');
  });

  it('refuses a NUL in a path parameter or a query value, signed out too, before any route code runs', async () => {
    const path = await fetch(`${t.url}/api/public/creators/a%00b`);
    expect(path.status).toBe(400);
    expect(await json(path)).toMatchObject({ error: 'invalid_text', field: 'username' });

    const query = await fetch(`${t.url}/api/chatlog/fan/mobile_fan_a1?creator=al%00ice`);
    expect(query.status).toBe(400);
    expect(await json(query)).toMatchObject({ error: 'invalid_text', field: 'creator' });

    // A creator route refuses it too, before its sign-in check.
    const owner = await fetch(`${t.url}/api/creators/username/al%00ice/messages`);
    expect(owner.status).toBe(400);
    const upload = await fetch(`${t.url}/api/s3/params?filename=a%00.pdf`);
    expect(upload.status).toBe(400);
  });

  it('answers malformed %-escapes in the path or the query with 400 invalid_url', async () => {
    for (const url of [
      '/api/public/creators/%zz',
      '/api/public/creators/%E0%A4',
      '/api/public/creators/%ED%A0%80', // a surrogate in UTF-8 form: not UTF-8
      '/api/chatlog/fan/mobile_fan_a1?creator=%zz',
      '/api/chatlog/fan/mobile_fan_a1?creator=%ED%A0%80',
      '/api/chatlog/fan/mobile_fan_a1?%=alice',
    ]) {
      const res = await fetch(`${t.url}${url}`);
      expect(res.status, url).toBe(400);
      const body = await json(res);
      expect(body.error, url).toBe('invalid_url');
      expect(typeof body.message).toBe('string');
    }
  });

  it('answers an over-long address with 414 (in-process) or 431 (over the socket limit), never 5xx', async () => {
    const long = await t.app.inject({
      method: 'GET',
      url: `/api/public/creators/alice?x=${'a'.repeat(MAX_URL_LENGTH)}`,
    });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ error: 'uri_too_long' });
    expect(await rawStatus(t, `GET /api/public/creators/alice?x=${'a'.repeat(9000)} HTTP/1.1`)).toBe(414);
    // A path parameter longer than the router takes is a 414 too; below that, the route's schema decides.
    const param = await fetch(`${t.url}/api/public/creators/${'a'.repeat(MAX_PARAM_LENGTH + 1)}`);
    expect(param.status).toBe(414);
    expect((await json(param)).error).toBe('uri_too_long');
    const schema = await fetch(`${t.url}/api/public/creators/${'a'.repeat(101)}`);
    expect(schema.status).toBe(400);
    expect(await json(schema)).toMatchObject({ error: 'validation_error', field: 'username' });
    expect(await rawStatus(t, `GET /api/public/creators/${'a'.repeat(20_000)} HTTP/1.1`)).toBe(431);
    // A raw NUL in the request line never reaches the app: Node's parser answers 400.
    expect(await rawStatus(t, 'GET /api/public/creators/a\u0000b HTTP/1.1')).toBe(400);
  });

  it('answers an image path whose key could never be stored like a missing image (404), not 500', async () => {
    for (const key of [
      `uploads/${'a'.repeat(300)}`,
      `uploads/${'é'.repeat(150)}`,
      `uploads/${'x/'.repeat(600)}`,
      'uploads/%2500',
    ]) {
      const res = await fetch(`${t.url}/objects/${key}`);
      expect(res.status, key.slice(0, 30)).toBe(404);
    }
    // A real one is still served.
    const image = await uploadAs(t, alice, PNG_1PX);
    const path = new URL(image).pathname.replace(/^\/[^/]+\//, '/objects/');
    expect((await fetch(`${t.url}${path}`)).status).toBe(200);
    // The profile image call refuses a key past the store's limits as a 400 of its own.
    const res = await call(t, 'PUT', '/api/creators/username/alice/profile-image', alice, {
      profileImageURL: `${path}${'a'.repeat(300)}`,
    });
    expect(res.status).toBe(400);
  });

  it('drops a cookie that breaks the rule (as if not sent) instead of refusing the browser', async () => {
    const broken = await fetch(`${t.url}/api/auth/user`, { headers: { cookie: 'fp_session=%00' } });
    expect(broken.status).toBe(401);
    const fan = await fetch(`${t.url}/api/chatlog/fan/mobile_fan_a2?creator=alice`, {
      headers: { cookie: 'fp_fan=%ED%A0%80' },
    });
    expect(fan.status).toBe(200);
  });

  it('checks the file name and text fields of a multipart upload', async () => {
    const form = new FormData();
    form.append('note', 'bad \u0000 field');
    form.append('file', new Blob(['Some notes.']), 'notes.txt');
    const field = await fetch(`${t.url}/api/chatbots/${chatbotId}/knowledge/upload`, {
      method: 'POST',
      headers: { cookie: alice },
      body: form,
    });
    expect(field.status).toBe(400);
    expect((await json(field)).message).toContain("'note'");

    const boundary = 'b0undary';
    const body = Buffer.from(
      [
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="no\u0000tes.txt"',
        'Content-Type: text/plain',
        '',
        'Some notes.',
        `--${boundary}--`,
        '',
      ].join('\r\n'),
      'utf8',
    );
    const name = await fetch(`${t.url}/api/chatbots/${chatbotId}/knowledge/upload`, {
      method: 'POST',
      headers: { cookie: alice, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(name.status).toBe(400);
    expect((await json(name)).error).toBe('invalid_text');
  });

  it('completing a multipart upload that does not exist, or with parts never sent, is a 4xx (the embedded store survives)', async () => {
    const created = await call(t, 'POST', '/api/s3/multipart', alice, {
      filename: 'big.pdf',
      type: 'application/pdf',
    });
    expect(created.status).toBe(200);
    const { key, uploadId } = (await created.json()) as { key: string; uploadId: string };
    const q = `?key=${encodeURIComponent(key)}`;
    const parts = { parts: [{ PartNumber: 1, ETag: '"abc"' }] };

    const missingParts = await call(t, 'POST', `/api/s3/multipart/${uploadId}/complete${q}`, alice, parts);
    expect(missingParts.status).toBe(400);
    expect((await json(missingParts)).error).toBe('invalid_parts');

    const unknown = await call(t, 'POST', `/api/s3/multipart/0123456789abcdef/complete${q}`, alice, parts);
    expect(unknown.status).toBe(404);
    const dots = await call(t, 'POST', `/api/s3/multipart/../complete${q}`, alice, parts);
    expect(dots.status).toBeLessThan(500);
    // Over a raw socket (fetch and inject resolve %2E%2E as a path step): no part URL for '..'.
    expect(await rawStatus(t, `GET /api/s3/multipart/%2E%2E/1${q} HTTP/1.1`, [`Cookie: ${alice}`])).toBe(400);

    // Upload ids of real stores (MinIO's run past 100 characters) reach the route.
    const longId = await call(t, 'GET', `/api/s3/multipart/${'Z'.repeat(150)}/1${q}`, alice);
    expect(longId.status).toBe(200);

    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
  });
});
