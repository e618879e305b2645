import { webAppManifestSchema } from '@fanpilot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortNameFor } from '../../src/services/webManifest.ts';
import { identity, json, PNG_1PX, startTestApp, type TestApp, uploadAs } from '../helpers.ts';

describe('per-creator web app manifest', () => {
  let t: TestApp;
  let carmen: string;
  beforeAll(async () => {
    t = await startTestApp();
    const cookie = await t.signIn(identity('carmen'));
    carmen = cookie;
    const image = await uploadAs(t, cookie, PNG_1PX);
    const res = await fetch(`${t.url}/api/creator-signup`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ chatbotName: 'Coach Carmen AI', profileImageUrl: image }),
    });
    expect(res.status).toBe(200);
    // Signed in but never onboarded: no public app yet.
    await t.signIn(identity('dario'));
  });
  afterAll(async () => {
    await t.close();
  });

  it("describes the creator's installable chat under the brand set up at onboarding: the chatbot's name and the picture", async () => {
    const res = await fetch(`${t.url}/pwa/carmen/manifest.webmanifest`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = webAppManifestSchema.parse(await res.json());
    expect(manifest).toMatchObject({
      // The chatbot's name, not the Google account's (which gave the launcher "Carmen").
      name: 'Coach Carmen AI',
      short_name: 'Coach',
      description: 'Chat with Coach Carmen AI',
      start_url: '/pwa/carmen',
      scope: '/pwa/carmen',
      display: 'standalone',
    });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    // The creator's photo resized to the installers' sizes, not the whole upload at 'any' (issue 36 item 9f).
    expect(manifest.icons.slice(0, 2)).toEqual([
      {
        src: expect.stringMatching(/^\/objects\/uploads\/.+\?size=192$/),
        sizes: '192x192',
        type: 'image/png',
        purpose: 'any',
      },
      {
        src: expect.stringMatching(/^\/objects\/uploads\/.+\?size=512$/),
        sizes: '512x512',
        type: 'image/png',
        purpose: 'any',
      },
    ]);
    for (const icon of manifest.icons.slice(0, 2)) {
      const photo = await fetch(`${t.url}${icon.src}`);
      expect(photo.status).toBe(200);
      expect(photo.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await photo.arrayBuffer());
      // PNG IHDR: width and height at bytes 16 and 20.
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
    }
  });

  it('matches the username case-insensitively and keeps the canonical one in its URLs', async () => {
    const manifest = (await (await fetch(`${t.url}/pwa/CARMEN/manifest.webmanifest`)).json()) as {
      start_url: string;
    };
    expect(manifest.start_url).toBe('/pwa/carmen');
  });

  it("falls back to the creator's own name once the chatbot is gone", async () => {
    const bot = (await json(
      await fetch(`${t.url}/api/creators/username/carmen/chatbot`, { headers: { cookie: carmen } }),
    )) as { id: string } | null;
    expect(bot?.id).toBeTruthy();
    const del = await fetch(`${t.url}/api/chatbots/${bot?.id}`, {
      method: 'DELETE',
      headers: { cookie: carmen, origin: t.url },
    });
    expect(del.status).toBe(200);
    const manifest = webAppManifestSchema.parse(
      await (await fetch(`${t.url}/pwa/carmen/manifest.webmanifest`)).json(),
    );
    expect(manifest).toMatchObject({ name: 'Carmen Tester', short_name: 'Carmen' });
    expect(manifest.icons[0]?.src).toMatch(/^\/objects\/uploads\//);
  });

  it('answers 404 with a readable JSON error for an unknown or not yet onboarded creator', async () => {
    for (const username of ['nobody', 'dario']) {
      const res = await fetch(`${t.url}/pwa/${username}/manifest.webmanifest`);
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ error: 'not_found', message: 'This creator could not be found.' });
    }
  });

  it('shortens long names for the launcher label', () => {
    expect(shortNameFor('Ana')).toBe('Ana');
    expect(shortNameFor('Maximiliano Rodriguez')).toBe('Maximiliano');
    expect(shortNameFor('Supercalifragilistic')).toBe('Supercalifr…');
  });
});
