import { randomUUID } from 'node:crypto';
import { makePdf } from '@fanpilot/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CITED_FILE_LINK_SECONDS, citedFileLinks } from '../../src/services/cited-files.ts';
import {
  type ChatMessage,
  call,
  eventually,
  FanBrowser,
  json,
  onboardedCreator,
  startTestApp,
  type TestApp,
} from '../helpers.ts';

interface Source {
  title: string;
  source: string;
  kind?: string;
  url?: string;
  page?: number;
}

/**
 * A creator's files are theirs (docs/decisions/0019-a-creator-s-files-are-theirs.md): a file citation opens the cited passage for the
 * fan it was given to, or the creator; the whole file only through a short-lived signed link, and
 * only where the creator allows downloads of that file.
 */
describe('cited passages and file downloads', () => {
  let t: TestApp;
  let kim: Awaited<ReturnType<typeof onboardedCreator>>;
  let lee: Awaited<ReturnType<typeof onboardedCreator>>;
  let fan: FanBrowser;
  let pdf: Buffer;
  let itemId: string;
  let answerId: string;
  let n: number;

  const passageUrl = (fanId: string, messageId: string, index: number) =>
    `/api/chatlog/fan/${encodeURIComponent(fanId)}/messages/${messageId}/citations/${index}`;
  const read = (path: string, cookie = '') => fetch(`${t.url}${path}`, { headers: cookie ? { cookie } : {} });
  const setDownloads = (id: string, allowed: boolean, cookie = kim.cookie) =>
    call(t, 'PATCH', `/api/knowledge/${id}`, cookie, { fansMayDownload: allowed });

  /** A PDF knowledge file of kim's, registered the way the dashboard's upload widget does. */
  const addPdf = async (bytes: Buffer, name: string, extra: Record<string, unknown> = {}) => {
    const key = `knowledge-uploads/${kim.creatorId}/${randomUUID()}/${name}`;
    await t.storage.put(key, bytes, 'application/pdf');
    const res = await call(t, 'POST', `/api/chatbots/${kim.chatbotId}/knowledge/uploaded`, kim.cookie, {
      key,
      filename: name,
      ...extra,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const item = (await res.json()) as { id: string; fansMayDownload?: boolean };
    await eventually(async () => {
      const row = await t.db.db
        .selectFrom('knowledge_items')
        .select('status')
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow();
      return row.status === 'completed' || row.status === 'active';
    });
    return item;
  };

  beforeAll(async () => {
    t = await startTestApp({ ingestInProcess: true });
    kim = await onboardedCreator(t, 'kim');
    lee = await onboardedCreator(t, 'lee');
    pdf = makePdf([
      ['Membership terms and opening hours of the studio.'],
      ['Sauna rules: towels are required in the sauna at all times.'],
    ]);
    itemId = (await addPdf(pdf, 'studio-rules.pdf')).id;
    // Kim is Offline and has no model key: the AI answers by quoting her material, with its citation.
    fan = new FanBrowser(t);
    const asked = await fan.ask(kim.username, 'Are towels required in the sauna?');
    expect(asked.status).toBe(200);
    const answer = await eventually(async () =>
      (await fan.messages(kim.username)).find((m) => m.from === 'Creatorai'),
    );
    answerId = answer.id;
    const sources = (answer as unknown as { sources?: Source[] }).sources ?? [];
    n = sources.findIndex((s) => s.kind === 'pdf');
    expect(n, JSON.stringify(sources)).toBeGreaterThanOrEqual(0);
  }, 60_000);

  afterEach(() => {
    vi.useRealTimers();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lists a file citation with its page but no address and no passage', async () => {
    const answer = (await fan.messages(kim.username)).find(
      (m) => m.id === answerId,
    ) as unknown as ChatMessage & {
      sources: Record<string, unknown>[];
    };
    expect(answer.sources[n]).toEqual({
      title: expect.any(String),
      source: 'studio-rules.pdf',
      kind: 'pdf',
      page: 2,
    });
    // The stored citation keeps the passage for the viewer.
    const row = await t.db.db
      .selectFrom('messages')
      .select('sources')
      .where('id', '=', answerId)
      .executeTakeFirstOrThrow();
    expect((row.sources as unknown as Record<string, unknown>[])[n]).toMatchObject({
      itemId,
      passage: expect.stringContaining('towels are required'),
    });
  });

  it('gives the cited fan the passage with its page, and no file bytes', async () => {
    const res = await read(passageUrl(fan.fanId, answerId, n), fan.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toMatch(/private/);
    const body = await json(res);
    expect(body).toEqual({
      title: expect.any(String),
      source: 'studio-rules.pdf',
      page: 2,
      text: expect.stringContaining('Sauna rules: towels are required in the sauna'),
    });
    expect(String(body.text)).not.toContain('Membership terms');
    expect(String(body.text)).not.toContain('%PDF');
  });

  it('lets the creator read it, and nobody else', async () => {
    const own = await read(passageUrl(fan.fanId, answerId, n), kim.cookie);
    expect(own.status).toBe(200);
    expect((await json(own)).text).toContain('towels are required');

    // A stranger (no cookie), another fan's browser, another creator: 403, and nothing of the passage.
    const other = new FanBrowser(t);
    expect((await other.ask(kim.username, 'Hello')).status).toBe(200);
    for (const cookie of ['', other.cookie, lee.cookie]) {
      const res = await read(passageUrl(fan.fanId, answerId, n), cookie);
      expect(res.status, cookie || 'no cookie').toBe(403);
      const text = await res.text();
      expect(text).not.toContain('towels');
      expect(JSON.parse(text)).toHaveProperty('message');
    }
    // The answer under another fan id (even one's own) is not that fan's: 404.
    expect((await read(passageUrl(other.fanId, answerId, n), other.cookie)).status).toBe(404);
  });

  it('answers 404 for a citation that is not there, 400 for a malformed one', async () => {
    for (const index of [n + 1, 99]) {
      const res = await read(passageUrl(fan.fanId, answerId, index), fan.cookie);
      expect(res.status, String(index)).toBe(404);
    }
    const question = (await fan.messages(kim.username)).find((m) => m.from === 'fan')!;
    expect((await read(passageUrl(fan.fanId, question.id, 0), fan.cookie)).status).toBe(404);
    expect((await read(passageUrl(fan.fanId, '999999999', 0), fan.cookie)).status).toBe(404);
    for (const bad of [
      passageUrl(fan.fanId, answerId, -1),
      `${passageUrl(fan.fanId, answerId, 0).slice(0, -1)}x`,
      passageUrl(fan.fanId, 'abc', 0),
    ]) {
      const res = await read(bad, fan.cookie);
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toHaveProperty('message');
    }
  });

  it('refuses the download unless the creator allows it', async () => {
    expect(
      (await json(await read(passageUrl(fan.fanId, answerId, n), fan.cookie))).downloadUrl,
    ).toBeUndefined();
    // Even a correctly signed link serves nothing while downloads are off.
    const forged = citedFileLinks(t.config.sessionSecret).issue(itemId);
    const res = await read(forged.url);
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({ error: 'download_not_allowed' });

    // Only the owner switches downloads, and only on files.
    expect((await setDownloads(itemId, true, '')).status).toBe(401);
    expect((await setDownloads(itemId, true, lee.cookie)).status).toBe(403);
    expect((await setDownloads('not-an-id', true)).status).toBe(404);
    const bad = await call(t, 'PATCH', `/api/knowledge/${itemId}`, kim.cookie, { fansMayDownload: 'yes' });
    expect(bad.status).toBe(400);
  });

  it('when allowed, issues a signed link that serves the file privately, with ranges, for a few minutes', async () => {
    const on = await setDownloads(itemId, true);
    expect(on.status).toBe(200);
    expect(await json(on)).toMatchObject({ id: itemId, fansMayDownload: true });

    const issuedAt = Date.now();
    const body = await json(await read(passageUrl(fan.fanId, answerId, n), fan.cookie));
    expect(body.downloadUrl).toMatch(
      new RegExp(`^/api/knowledge/${itemId}/download\\?expires=\\d+&signature=`),
    );
    const expiresAt = Date.parse(String(body.downloadExpiresAt));
    expect(expiresAt - issuedAt).toBeGreaterThan((CITED_FILE_LINK_SECONDS - 5) * 1000);
    expect(expiresAt - issuedAt).toBeLessThanOrEqual(CITED_FILE_LINK_SECONDS * 1000 + 1000);
    const link = String(body.downloadUrl);

    // The whole file, with no cookie at all (a download manager or PDF viewer holds only the link).
    const whole = await read(link);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('cache-control')).toMatch(/^private\b/);
    expect(whole.headers.get('content-type')).toBe('application/pdf');
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename="studio-rules.pdf"/);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(pdf)).toBe(true);

    // One byte range: 206 with its content-range.
    const first = await fetch(`${t.url}${link}`, { headers: { range: 'bytes=0-4' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-4/${pdf.length}`);
    expect(first.headers.get('content-length')).toBe('5');
    expect(first.headers.get('cache-control')).toMatch(/^private\b/);
    expect(await first.text()).toBe('%PDF-');
    const tail = await fetch(`${t.url}${link}`, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(
      `bytes ${pdf.length - 10}-${pdf.length - 1}/${pdf.length}`,
    );
    expect(Buffer.from(await tail.arrayBuffer()).equals(pdf.subarray(pdf.length - 10))).toBe(true);
    const outside = await fetch(`${t.url}${link}`, { headers: { range: `bytes=${pdf.length + 10}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${pdf.length}`);

    // A tampered signature, or the signature moved to another file: 403.
    const url = new URL(link, t.url);
    const signature = url.searchParams.get('signature')!;
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    url.searchParams.set('signature', flipped);
    expect((await read(url.pathname + url.search)).status).toBe(403);
    const other = await addPdf(makePdf([['Another file.']]), 'other.pdf', { fansMayDownload: true });
    expect(other.fansMayDownload).toBe(true);
    expect((await read(link.replace(itemId, other.id))).status).toBe(403);
    url.searchParams.set('signature', signature);
    url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await read(url.pathname + url.search)).status).toBe(403);

    // A few minutes later the link has expired.
    vi.useFakeTimers({ toFake: ['Date'], now: expiresAt + 1000 });
    const late = await read(link);
    expect(late.status).toBe(410);
    expect(await json(late)).toMatchObject({ error: 'link_expired' });
    vi.useRealTimers();
    expect((await read(link)).status).toBe(200);

    // Downloads switched off again: the issued link stops working at once.
    expect((await setDownloads(itemId, false)).status).toBe(200);
    expect((await read(link)).status).toBe(403);
  });

  it('serves answers stored before passages were kept, and the old public address serves nothing', async () => {
    const fanRow = await t.db.db
      .selectFrom('fans')
      .select(['id'])
      .where('fan_key', '=', fan.fanId)
      .executeTakeFirstOrThrow();
    const old = await t.db.db
      .insertInto('messages')
      .values({
        creator_id: kim.creatorId,
        fan_id: fanRow.id,
        sender: 'Creatorai',
        body: 'Towels, please.',
        status: null,
        reply_to: null,
        fan_name: null,
        sources: JSON.stringify([
          {
            title: 'studio-rules.pdf',
            source: 'studio-rules.pdf',
            kind: 'pdf',
            url: `/api/public/knowledge/${itemId}/file#page=2`,
            page: 2,
          },
        ]),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const listed = (await fan.messages(kim.username)).find(
      (m) => m.id === String(old.id),
    ) as unknown as ChatMessage & {
      sources: Source[];
    };
    expect(listed.sources[0]).toEqual({
      title: 'studio-rules.pdf',
      source: 'studio-rules.pdf',
      kind: 'pdf',
      page: 2,
    });
    const res = await read(passageUrl(fan.fanId, String(old.id), 0), fan.cookie);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ page: 2, text: expect.stringContaining('towels are required') });

    const gone = await read(`/api/public/knowledge/${itemId}/file`);
    expect(gone.status).toBe(404);
    expect(Buffer.from(await gone.arrayBuffer()).includes(Buffer.from('%PDF'))).toBe(false);
  });

  it('a link issued before downloads were switched off stays dead when they are switched on again', async () => {
    expect((await setDownloads(itemId, true)).status).toBe(200);
    const before = String(
      (await json(await read(passageUrl(fan.fanId, answerId, n), fan.cookie))).downloadUrl,
    );
    expect((await read(before)).status).toBe(200);
    // Off and on again, well within the link's five minutes.
    expect((await setDownloads(itemId, false)).status).toBe(200);
    const whileOff = await read(before);
    expect(whileOff.status).toBe(403);
    expect(await json(whileOff)).toMatchObject({ error: 'download_not_allowed' });
    expect((await setDownloads(itemId, true)).status).toBe(200);
    const revived = await read(before);
    expect(revived.status).toBe(410);
    const body = await json(revived);
    expect(body).toMatchObject({ error: 'link_revoked' });
    expect(String(body.message)).toContain('switched off');
    expect(Buffer.from(await (await read(before)).arrayBuffer()).includes(Buffer.from('%PDF'))).toBe(false);
    // Switched on twice over (an "on" that was already on ends nothing): still dead.
    expect((await setDownloads(itemId, true)).status).toBe(200);
    expect((await read(before)).status).toBe(410);

    // A link issued now works, until the next switch-off.
    const after = String(
      (await json(await read(passageUrl(fan.fanId, answerId, n), fan.cookie))).downloadUrl,
    );
    expect(after).not.toBe(before);
    const served = await read(after);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(pdf)).toBe(true);
    // A link signed for the old epoch cannot be made from the new one (the epoch is not in the URL).
    const url = new URL(after, t.url);
    const forged = citedFileLinks(t.config.sessionSecret).issue(itemId, 0);
    expect(new URL(forged.url, t.url).searchParams.get('signature')).not.toBe(
      url.searchParams.get('signature'),
    );
    expect((await read(forged.url)).status).toBe(410);
  });

  it('answers 404 once the source is deleted, for the passage and any link issued', async () => {
    expect((await setDownloads(itemId, true)).status).toBe(200);
    const link = String((await json(await read(passageUrl(fan.fanId, answerId, n), fan.cookie))).downloadUrl);
    expect((await read(link)).status).toBe(200);
    expect((await call(t, 'DELETE', `/api/knowledge/${itemId}`, kim.cookie)).status).toBe(200);
    for (const cookie of [fan.cookie, kim.cookie]) {
      const res = await read(passageUrl(fan.fanId, answerId, n), cookie);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('towels');
    }
    expect((await read(link)).status).toBe(404);
  });
});
