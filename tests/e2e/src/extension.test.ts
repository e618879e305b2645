import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creatorCall,
  FAN_RESULTS_DIR,
  type FanTestApi,
  type FanTestCreator,
  fanFreePort,
  onboardFanTestCreator,
  startFanTestApi,
} from './fan-helpers.ts';

/** The extension apis the test reads inside the extension's worker. */
declare const chrome: {
  action: { getBadgeText(details: object): Promise<string> };
  notifications: { getAll(): Promise<Record<string, boolean>> };
};

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The browser extension in Chromium (issue 28): built for the test api's origin (FANPILOT_ORIGIN),
 * loaded unpacked with --load-extension. A fan follows a creator with "Add to browser" in the fan
 * app, chats in the side panel, closes it, and a reply from the creator is announced with the badge
 * and a notification by the worker's poll. Headless Chromium cannot open the side panel itself (it
 * opens on a click of the toolbar button), so the panel's page is opened as a tab: the same page.
 */
describe('browser extension (built for the test origin, loaded unpacked)', () => {
  let api: FanTestApi;
  let creator: FanTestCreator;
  let context: BrowserContext;
  let worker: Worker;
  let extensionId: string;
  let buildDir: string;
  let profileDir: string;

  beforeAll(async () => {
    const port = await fanFreePort();
    const origin = `http://127.0.0.1:${port}`;
    buildDir = mkdtempSync(path.join(tmpdir(), 'fanpilot-extension-'));
    const built = spawnSync(process.execPath, ['apps/extension/scripts/build.mjs'], {
      cwd: REPO_ROOT,
      env: { ...process.env, FANPILOT_ORIGIN: origin, EXTENSION_OUT_DIR: path.join(buildDir, 'dist') },
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`extension build: ${built.stderr}${built.stdout}`);

    profileDir = mkdtempSync(path.join(tmpdir(), 'fanpilot-extension-profile-'));
    const extension = path.join(buildDir, 'dist');
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        `--disable-extensions-except=${extension}`,
        `--load-extension=${extension}`,
      ],
      viewport: { width: 1000, height: 800 },
    });
    worker =
      context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
    extensionId = new URL(worker.url()).host;

    api = await startFanTestApi({
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      EXTENSION_ORIGINS: `chrome-extension://${extensionId}`,
    });
    creator = await onboardFanTestCreator(api, 'Panel bot');
    // Online: the creator answers in person (no AI in this test).
    await creatorCall(api, creator, 'POST', '/api/toggle-status', { creator: creator.username });
  });

  afterAll(async () => {
    await context?.close();
    await api?.stop();
    for (const dir of [buildDir, profileDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('builds a store zip holding the manifest (MV3 side panel) with the origin set at build time', () => {
    const zip = readFileSync(path.join(buildDir, 'fanpilot-extension-1.0.0.zip'));
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes(Buffer.from('manifest.json'))).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(buildDir, 'dist', 'manifest.json'), 'utf8'));
    expect(manifest.manifest_version).toBe(3);
    expect(manifest.side_panel.default_path).toBe('sidepanel.html');
    expect(manifest.host_permissions).toEqual([`${api.url}/*`]);
  });

  it('follows a creator from the fan app, chats in the panel, and notifies a reply while it is closed', async () => {
    // "Add to browser" in the fan app (shown because the extension is installed).
    const fanApp = await context.newPage();
    await fanApp.goto(`${api.url}/pwa/${creator.username}`);
    await fanApp.getByRole('button', { name: 'Add to browser' }).click();
    await fanApp.getByRole('button', { name: 'Added to browser' }).waitFor({ timeout: 30_000 });
    await fanApp.close();

    // The side panel's page, as a tab.
    const panel = await context.newPage();
    await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);
    await panel.getByRole('button', { name: creator.name }).waitFor({ timeout: 15_000 });
    await panel.getByRole('textbox', { name: 'Message' }).fill('Hello from my browser');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByText('Hello from my browser').waitFor({ timeout: 15_000 });
    mkdirSync(FAN_RESULTS_DIR, { recursive: true });
    await panel.screenshot({ path: path.join(FAN_RESULTS_DIR, 'extension-side-panel.png') });
    // A typed username that is nobody's is said so.
    await panel.getByLabel('Creator’s username').fill('nobody-is-called-this');
    await panel.getByRole('button', { name: 'Follow' }).click();
    await panel.getByText("No creator is called 'nobody-is-called-this'.").waitFor({ timeout: 15_000 });
    await panel.close();

    // The creator answers while the panel is closed.
    await answerNewestQuestion('Hi! Thanks for following me.');

    // The worker's next look (every 30 s) finds it: a badge and a notification.
    await expect
      .poll(() => worker.evaluate(() => chrome.action.getBadgeText({})), { timeout: 75_000, interval: 1_000 })
      .toBe('1');
    const notifications = await worker.evaluate(() => chrome.notifications.getAll());
    expect(Object.keys(notifications)).toHaveLength(1);

    // Opening the panel shows the reply and clears the badge.
    const again = await context.newPage();
    const streamOpened = again.waitForResponse(
      (r) => r.url().startsWith(`${api.url}/api/events/fans/`) && r.status() === 200,
      { timeout: 30_000 },
    );
    await again.goto(`chrome-extension://${extensionId}/sidepanel.html`);
    await again.getByText('Hi! Thanks for following me.').waitFor({ timeout: 15_000 });
    await expect
      .poll(() => worker.evaluate(() => chrome.action.getBadgeText({})), { timeout: 10_000 })
      .toBe('');
    await again.screenshot({ path: path.join(FAN_RESULTS_DIR, 'extension-side-panel-reply.png') });

    // With the panel open, a reply arrives through the chat's event stream (the fan token sent as a
    // header), not with the next read: while the stream is open the panel reads only every 30 s.
    const stream = await streamOpened;
    expect(stream.headers()['content-type']).toContain('text/event-stream');
    expect(await stream.request().headerValue('x-fan-token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await again.getByRole('textbox', { name: 'Message' }).fill('And what about next week?');
    await again.getByRole('button', { name: 'Send' }).click();
    await again.getByText('And what about next week?').waitFor({ timeout: 15_000 });
    const sent = Date.now();
    await answerNewestQuestion('Next week we start the hill block.');
    await again.getByText('Next week we start the hill block.').waitFor({ timeout: 3_000 });
    console.log(
      `extension e2e: the reply showed in the open panel ${Date.now() - sent} ms after it was sent`,
    );
  }, 150_000);

  /** The creator answers the newest question waiting (the fan's chat, the only conversation). */
  async function answerNewestQuestion(response: string) {
    const conversations = (await creatorCall(
      api,
      creator,
      'GET',
      `/api/creators/username/${creator.username}/conversations`,
    )) as {
      conversations: { newestPending: { id: string } | null }[];
    };
    const question = conversations.conversations[0]?.newestPending;
    expect(question).toBeTruthy();
    await creatorCall(api, creator, 'POST', '/api/answer', {
      creator: creator.username,
      messageId: question!.id,
      response,
    });
  }
});
