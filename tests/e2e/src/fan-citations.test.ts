import { articlePage, type LoopbackServer, makePdf, startSite, startYoutubeStandIn } from '@fanpilot/testkit';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creatorCall,
  type FanFakeAi,
  type FanTestApi,
  type FanTestCreator,
  launchFanChromium,
  newFanPhoneContext,
  onboardFanTestCreator,
  saveFanScreenshot,
  startFanFakeAi,
  startFanTestApi,
} from './fan-helpers.ts';

/**
 * Citations in Chromium: the creator's knowledge is a web page, a PDF and a video (ingested by the
 * built api from loopback stand-ins for the site and YouTube); the AI's answer carries them as
 * chips under its bubble that open the passage on the page (text fragment) and the video at its
 * moment; the PDF's chip opens the passage quoted from it, with its page, in the app's own viewer,
 * never the file (docs/decisions/0019-a-creator-s-files-are-theirs.md). The chatbot's opening lines
 * are the chat's first bubbles.
 */
describe('fan app: citations a fan can open', () => {
  let api: FanTestApi;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let creator: FanTestCreator;
  let site: LoopbackServer;
  let youtube: LoopbackServer;
  let ai: FanFakeAi;

  const call = async (method: string, path: string, body?: unknown) =>
    (await creatorCall(api, creator, method, path, body)) as Record<string, unknown>;

  beforeAll(async () => {
    site = await startSite({
      '/sauna-guide': {
        body: articlePage('Sauna guide', [
          'The sauna at the studio is heated to eighty degrees and opens at seven in the morning.',
        ]),
      },
    });
    youtube = await startYoutubeStandIn({
      vid00000001: {
        title: 'Sauna routine explained',
        captions: [
          // Ninety seconds of other talk first, so the sauna part is a passage of its own.
          ...Array.from({ length: 30 }, (_, i) => ({
            start: i * 3,
            duration: 3,
            text: `Part ${i} of the warm up: roll your shoulders, breathe slowly and keep your back straight while stretching.`,
          })),
          {
            start: 95,
            duration: 6,
            text: 'Now the sauna part: stay in the sauna for twelve minutes at most.',
          },
        ],
      },
    });
    // The answer cites every excerpt it was given ([n] markers): its sources are exactly those.
    ai = await startFanFakeAi('Stay twelve minutes at most, and it opens at seven [1, 2, 3, 4, 5].');
    api = await startFanTestApi({
      OPENAI_API_KEY: 'sk-citations',
      OPENAI_BASE_URL: ai.baseUrl,
      INGEST_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,localhost',
      INGEST_YOUTUBE_ORIGIN: youtube.url,
    });
    browser = await launchFanChromium();
    creator = await onboardFanTestCreator(api, 'Citation bot');
    const bot = await call('GET', `/api/creators/username/${creator.username}/chatbot`);
    const chatbotId = String(bot.id);
    await call('PUT', `/api/chatbots/${chatbotId}/settings`, {
      name: 'Citation bot',
      instructions: '',
      model: 'gpt-4o-mini',
      temp: '0.7',
      initialMessages: ['Hi! I am the studio assistant.', 'Ask me about the sauna.'],
    });
    await call('POST', '/api/add-knowledge', {
      chatbotId,
      url: `http://localhost:${site.port}/sauna-guide`,
    });
    await call('POST', `/api/chatbots/${chatbotId}/knowledge/youtube`, {
      youtubeUrl: 'https://www.youtube.com/watch?v=vid00000001',
    });
    const form = new FormData();
    const pdf = makePdf([
      ['Membership terms and opening hours.'],
      ['Sauna rules: towels are required in the sauna.'],
    ]);
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'studio-rules.pdf');
    const upload = await fetch(`${api.url}/api/chatbots/${chatbotId}/knowledge/upload`, {
      method: 'POST',
      headers: { cookie: creator.cookie },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(200);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const progress = await call('GET', `/api/chatbots/${chatbotId}/knowledge/progress`);
      if (progress.pending === 0) {
        expect(progress).toMatchObject({ total: 3, active: 3, failed: 0 });
        break;
      }
      if (Date.now() > deadline) throw new Error(`knowledge not ready: ${JSON.stringify(progress)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    context = await newFanPhoneContext(browser, api, { blockServiceWorkers: true });
    page = await context.newPage();
  }, 150_000);

  afterAll(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
    await api?.stop();
    await site?.close();
    await youtube?.close();
    await ai?.stop();
  });

  it('opens with the chatbot’s lines, and the answer’s chips link to the page passage and the video moment, and open the PDF passage in the viewer', async () => {
    await page.goto(`/pwa/${creator.username}`);
    const openings = page.getByTestId('message-opening');
    await openings.first().waitFor();
    expect(await openings.allInnerTexts()).toEqual([
      expect.stringContaining('Hi! I am the studio assistant.'),
      expect.stringContaining('Ask me about the sauna.'),
    ]);

    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('How long should I stay in the sauna?');
    await box.press('Enter');
    await page.getByTestId('message-ai').waitFor({ timeout: 30_000 });
    const chips = page.getByRole('list', { name: 'Sources' }).getByTestId('citation');
    await chips.first().waitFor();
    const found = await chips.evaluateAll((els) =>
      els.map((a) => ({ tag: a.tagName, text: a.textContent ?? '', href: a.getAttribute('href') ?? '' })),
    );
    await saveFanScreenshot(page, 'citations');
    expect(found).toHaveLength(3);
    const web = found.find((l) => l.href.startsWith(`http://localhost:${site.port}/sauna-guide`));
    const video = found.find((l) => l.href.startsWith('https://www.youtube.com/watch?v=vid00000001'));
    expect(web?.href).toMatch(/#:~:text=The%20sauna%20at%20the%20studio/);
    // The moment of the caption that answers (the sauna part, at 95 s), not the passage's start.
    expect(video?.href).toContain('t=95s');
    expect(video?.text).toContain('1:35');
    // The PDF's chip is a button (no address of the file anywhere), labelled with its page.
    const pdf = found.find((l) => l.text.includes('studio-rules.pdf'));
    expect(pdf).toMatchObject({ tag: 'BUTTON', href: '' });
    expect(pdf?.text).toContain('p. 2');
    expect(found.some((l) => l.href.includes('/api/public/knowledge/'))).toBe(false);

    // Tapped, it opens the passage the answer quoted, with the file's name and page, in the viewer.
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await chips.filter({ hasText: 'studio-rules.pdf' }).click();
    const viewer = page.getByRole('dialog', { name: 'studio-rules.pdf' });
    await viewer.waitFor();
    await expect
      .poll(() => viewer.getByTestId('citation-passage').textContent())
      .toContain('towels are required');
    expect(await viewer.textContent()).toContain('Page 2');
    expect(await viewer.textContent()).not.toContain('Membership terms');
    await saveFanScreenshot(page, 'citation-viewer');
    // The creator has not allowed downloads: no download offered, and no file was fetched.
    expect(await viewer.getByRole('link', { name: 'Download the file' }).count()).toBe(0);
    expect(requests.some((u) => /\/api\/knowledge\/[^/]+\/download/.test(u))).toBe(false);
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'hidden' });

    // The old public address of the file serves nothing any more.
    const items = (await call('GET', `/api/creators/username/${creator.username}/chatbot`)).knowledge as {
      id: string;
      type: string;
    }[];
    const file = items.find((i) => i.type === 'file')!;
    expect((await page.request.get(`/api/public/knowledge/${file.id}/file`)).status()).toBe(404);

    // Once the creator allows downloads, the viewer offers the file through its short-lived link.
    await call('PATCH', `/api/knowledge/${file.id}`, { fansMayDownload: true });
    await chips.filter({ hasText: 'studio-rules.pdf' }).click();
    const download = viewer.getByRole('link', { name: 'Download the file' });
    await download.waitFor();
    const href = (await download.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/api\/knowledge\/[^/]+\/download\?expires=\d+&signature=/);
    const served = await page.request.get(href);
    expect(served.status()).toBe(200);
    expect(served.headers()['cache-control']).toMatch(/^private/);
    expect((await served.body()).subarray(0, 5).toString()).toBe('%PDF-');
    // The answer's text no longer carries a raw "Sources:" line, nor raw [n] markers: they are small
    // links, one per source, in the order the answer cites them.
    const text = (await page.getByTestId('message-ai').textContent()) ?? '';
    expect(text).not.toContain('Sources:');
    expect(text).not.toMatch(/\[\d\]/);
    const markers = page.getByTestId('message-ai').getByTestId('citation-marker');
    expect(await markers.allTextContents()).toEqual(['1', '2', '3']);
  });
});
