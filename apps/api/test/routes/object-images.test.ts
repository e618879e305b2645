import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resizedImageKey } from '../../src/services/images.ts';
import { call, identity, json, startTestApp, type TestApp, uploadAs } from '../helpers.ts';

// Issue 36 item 9f: a creator's picture is served resized for the 48 px avatar and the app icons
// (GET /objects/{key}?size=N), resized once and kept, instead of the whole upload every time.

/** A 1200 × 900 photo-like JPEG (noise compresses badly): well over 40 KB. */
async function bigPhoto(): Promise<Buffer> {
  const width = 1200;
  const height = 900;
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

describe('profile images at the sizes they are shown', () => {
  let t: TestApp;
  let path: string;
  let key: string;
  let original: Buffer;

  beforeAll(async () => {
    t = await startTestApp();
    const cookie = await t.signIn(identity('pia'));
    original = await bigPhoto();
    const uploaded = await uploadAs(t, cookie, original, 'image/jpeg');
    const res = await call(t, 'POST', '/api/creator-signup', cookie, {
      chatbotName: 'Pia bot',
      profileImageUrl: uploaded,
    });
    expect(res.status).toBe(200);
    const creator = (await json(res)).creator as { profileImageUrl: string };
    path = creator.profileImageUrl;
    key = decodeURIComponent(path.replace(/^\/objects\//, ''));
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the avatar and the icons as small squares, the original without a size', async () => {
    expect(original.length).toBeGreaterThan(40_000);
    const whole = await fetch(`${t.url}${path}`);
    expect(whole.status).toBe(200);
    expect((await whole.arrayBuffer()).byteLength).toBe(original.length);

    for (const [size, type] of [
      [48, 'image/webp'],
      [96, 'image/webp'],
      [192, 'image/png'],
      [512, 'image/png'],
    ] as const) {
      const res = await fetch(`${t.url}${path}?size=${size}`);
      expect(res.status, String(size)).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const body = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(body).metadata();
      expect([meta.width, meta.height], String(size)).toEqual([size, size]);
      if (size <= 96) expect(body.length, String(size)).toBeLessThan(8_000);
    }
  });

  it('resizes once and keeps it: the next read comes from storage', async () => {
    const first = await fetch(`${t.url}${path}?size=96`);
    expect(first.status).toBe(200);
    const kept = await t.storage.head(resizedImageKey(key, 96));
    expect(kept?.contentLength).toBe((await first.arrayBuffer()).byteLength);
    // The kept copy is what is served: replace it and the next read returns it as it is.
    const marker = await sharp({
      create: { width: 96, height: 96, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .webp()
      .toBuffer();
    await t.storage.put(resizedImageKey(key, 96), marker, 'image/webp');
    const again = Buffer.from(await (await fetch(`${t.url}${path}?size=96`)).arrayBuffer());
    expect(again.equals(marker)).toBe(true);
    // The kept copies are never served directly.
    expect((await fetch(`${t.url}/objects/${resizedImageKey(key, 96)}`)).status).toBe(404);
  });

  it('refuses a size it does not serve in words, and an unknown image is a 404', async () => {
    for (const size of ['47', '1000', 'big', '']) {
      const res = await fetch(`${t.url}${path}?size=${size}`);
      expect(res.status, size).toBe(400);
      expect(await res.json()).toEqual({
        error: 'invalid_image_size',
        message: 'size must be one of 48, 96, 192, 512.',
      });
    }
    expect((await fetch(`${t.url}/objects/uploads/nobody/none?size=96`)).status).toBe(404);
  });
});
