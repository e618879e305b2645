import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChatMessage,
  call,
  FanBrowser,
  json,
  onboard,
  PNG_1PX,
  sent,
  setCookies,
  startTestApp,
  type TestApp,
} from '../helpers.ts';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);

async function attachmentRows(t: TestApp) {
  return t.db.db.selectFrom('file_attachments').selectAll().execute();
}

describe('fan attachments', () => {
  let t: TestApp;
  let hana: string;
  let ivan: string;
  beforeAll(async () => {
    t = await startTestApp();
    hana = await onboard(t, 'hana');
    ivan = await onboard(t, 'ivan');
    await call(t, 'POST', '/api/toggle-status', hana, { creator: 'hana' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes an image with a question; the creator sees its name and size and downloads it', async () => {
    const fan = new FanBrowser(t);
    const res = await fan.ask('hana', 'Is my form right?', {
      attachment: { filename: 'squat photo.png', contentBase64: PNG_1PX.toString('base64') },
    });
    expect(res.status).toBe(200);
    const { message: stored } = await sent(res);
    expect(stored.fileAttachment).toEqual({
      id: expect.any(String),
      fileType: 'image',
      originalFilename: 'squat photo.png',
      fileSize: PNG_1PX.length,
    });
    const [row] = await attachmentRows(t);
    expect(row!.storage_key).toMatch(/^attachments\//);

    const list = (await json(
      await call(t, 'GET', '/api/creators/username/hana/messages', hana),
    )) as unknown as ChatMessage[];
    const id = list[0]!.fileAttachment!.id;
    const download = await call(t, 'GET', `/api/files/${id}/download`, hana);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="squat photo.png"; filename*=UTF-8''squat%20photo.png`,
    );
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG_1PX)).toBe(true);

    // The fan's own browser may download it too; nobody else.
    expect(
      (await fetch(`${t.url}/api/files/${id}/download`, { headers: { cookie: fan.cookie } })).status,
    ).toBe(200);
    const stranger = new FanBrowser(t);
    await stranger.ask('hana', 'Hi');
    expect(
      (await fetch(`${t.url}/api/files/${id}/download`, { headers: { cookie: stranger.cookie } })).status,
    ).toBe(403);
    expect((await call(t, 'GET', `/api/files/${id}/download`, ivan)).status).toBe(403);
    expect((await fetch(`${t.url}/api/files/${id}/download`)).status).toBe(403);
    expect(
      (await call(t, 'GET', '/api/files/00000000-0000-4000-8000-000000000000/download', hana)).status,
    ).toBe(404);
    expect((await call(t, 'GET', '/api/files/not-an-id/download', hana)).status).toBe(404);
  });

  it('takes a PDF, also as a data URL, and names it safely', async () => {
    const fan = new FanBrowser(t);
    const res = await fan.ask('hana', 'My plan', {
      attachment: {
        filename: 'plän "v2".pdf',
        contentBase64: `data:application/pdf;base64,${PDF.toString('base64')}`,
      },
    });
    expect(res.status).toBe(200);
    const { message: stored } = await sent(res);
    expect(stored.fileAttachment).toMatchObject({
      fileType: 'pdf',
      fileSize: PDF.length,
      originalFilename: 'plän "v2".pdf',
    });
    const download = await call(t, 'GET', `/api/files/${stored.fileAttachment!.id}/download`, hana);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="pl_n _v2_.pdf"; filename*=UTF-8''pl%C3%A4n%20%22v2%22.pdf`,
    );
    // The fan's chat shows the attachment too.
    expect((await fan.messages('hana'))[0]!.fileAttachment).toMatchObject({ fileType: 'pdf' });
  });

  it('refuses files that are not images or PDFs by content, whatever their name, and stores nothing', async () => {
    const before = (await attachmentRows(t)).length;
    const fan = new FanBrowser(t);
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await fan.ask('hana', 'Look', {
      attachment: { filename: 'innocent.png', contentBase64: html.toString('base64') },
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: 'unsupported_attachment',
      message: 'Only images (PNG, JPEG, GIF, WebP) and PDF files can be attached.',
    });
    expect((await attachmentRows(t)).length).toBe(before);
    expect(await fan.messages('hana')).toEqual([]);
  });

  it('refuses attachments over 10 MB', async () => {
    const fan = new FanBrowser(t);
    const big = Buffer.concat([PNG_1PX, Buffer.alloc(10 * 1024 * 1024)]);
    const res = await fan.ask('hana', 'Huge', {
      attachment: { filename: 'big.png', contentBase64: big.toString('base64') },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toContain('larger than 10 MB');
    const huge = await fan.ask('hana', 'Huger', {
      attachment: { filename: 'big.png', contentBase64: 'A'.repeat(16 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect(await fan.messages('hana')).toEqual([]);
  });

  it('only the browser holding the conversation downloads its files; a transfer link moves that too', async () => {
    const fan = new FanBrowser(t);
    const { message: stored } = await sent(
      await fan.ask('hana', 'My scan', {
        attachment: { filename: 'scan.png', contentBase64: PNG_1PX.toString('base64') },
      }),
    );
    const url = `${t.url}/api/files/${stored.fileAttachment!.id}/download`;
    const download = (cookie: string) => fetch(url, cookie ? { headers: { cookie } } : {});
    expect((await download(fan.cookie)).status).toBe(200);
    // Knowing the fan id is nothing: a browser asking as it is refused and stores no file of its own.
    const sameId = new FanBrowser(t, fan.fanId);
    const ask = await sameId.ask('hana', 'Mine now', {
      attachment: { filename: 'x.png', contentBase64: PNG_1PX.toString('base64') },
    });
    expect(ask.status).toBe(403);
    expect((await download(sameId.cookie)).status).toBe(403);
    const refused = await download('');
    expect(refused.status).toBe(403);
    expect(await json(refused)).toEqual({ error: 'forbidden', message: expect.any(String) });
    // Another creator, signed in, gets nothing either; the fan's own creator does.
    expect((await call(t, 'GET', `/api/files/${stored.fileAttachment!.id}/download`, ivan)).status).toBe(403);
    expect((await call(t, 'GET', `/api/files/${stored.fileAttachment!.id}/download`, hana)).status).toBe(200);

    const made = await fetch(`${t.url}/api/fan-transfers`, {
      method: 'POST',
      headers: { cookie: fan.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ creator: 'hana', fanId: fan.fanId }),
    });
    const token = new URL(((await json(made)) as unknown as { url: string }).url).hash.slice(
      '#transfer='.length,
    );
    const redeemed = await fetch(`${t.url}/api/fan-transfers/redeem`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(redeemed.status).toBe(200);
    const newPhone = `fp_fan=${setCookies(redeemed).fp_fan}`;
    expect((await download(newPhone)).status).toBe(200);
    expect((await download(fan.cookie)).status).toBe(403);
  });

  it('deleting the conversation removes its files from storage', async () => {
    const fan = new FanBrowser(t);
    const { message: stored } = await sent(
      await fan.ask('hana', 'Bye', {
        attachment: { filename: 'a.png', contentBase64: PNG_1PX.toString('base64') },
      }),
    );
    const row = (await attachmentRows(t)).find((r) => r.id === stored.fileAttachment!.id)!;
    expect(await t.storage.head(row.storage_key)).not.toBeNull();
    const res = await call(t, 'DELETE', `/api/chatlog/fan/${fan.fanId}?creator=hana`, hana);
    expect(res.status).toBe(200);
    expect(await t.storage.head(row.storage_key)).toBeNull();
    expect((await call(t, 'GET', `/api/files/${row.id}/download`, hana)).status).toBe(404);
  });
});
