import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signUpInBrowser } from './helpers/browser.ts';
import { type DashboardRig, newFanId, startDashboardRig } from './helpers/dashboard.ts';

/**
 * Issue 36 item 4 in Chromium: the conversation modal with the AI draft panel at a laptop's
 * 1280×800 and a phone's 390×844. Its body scrolls and the footer with Close and Send stays in
 * view; the draft (the embedded answerer's, no model key) reads as the creator's own reply, with its
 * source named apart ("Based on: …"), never a quotation with a "— from" line.
 */

const USERNAME = 'creator';
const SLOW = 180_000;
const QUESTION = 'How long is the Sunday long run in week 9?';
const PLAN = [
  'Marathon plan by the coach.',
  'Week 8: rest on Monday and run easy on Wednesday.',
  'In week 9 the Sunday long run is 24 km at an easy pace.',
  'Week 10: the taper begins and the long run drops to 16 km.',
].join('\n');

async function until<T>(check: () => Promise<T | null | false | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Whether the button is inside the viewport and is what a click at its centre reaches (nothing over it). */
async function reachable(button: Locator): Promise<boolean> {
  return button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}

async function teachPlan(page: Page) {
  const bot = (await (await page.request.get(`/api/creators/username/${USERNAME}/chatbot`)).json()) as {
    id: string;
  };
  const upload = await page.request.post(`/api/chatbots/${bot.id}/knowledge/upload`, {
    multipart: { file: { name: 'marathon-plan.txt', mimeType: 'text/plain', buffer: Buffer.from(PLAN) } },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  await until(async () => {
    const progress = (await (
      await page.request.get(`/api/chatbots/${bot.id}/knowledge/progress`)
    ).json()) as { pending: number; active: number };
    return progress.pending === 0 && progress.active === 1;
  });
}

/** A fan's messages as the fan app sends them, the same fan each time (its cookie carried on). */
async function askAll(origin: string, messages: string[]) {
  const fanId = newFanId();
  let cookie = '';
  for (const message of messages) {
    const response = await fetch(`${origin}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ creator: USERNAME, message, fanId, fanName: 'Runner Rita' }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const set = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    if (set) cookie = set;
  }
}

describe('the conversation modal with an AI draft', () => {
  let rig: DashboardRig;
  let page: Page;

  beforeAll(async () => {
    rig = await startDashboardRig();
    page = rig.page;
  }, SLOW);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'keeps Close and Send in view at 1280×800 and 390×844; the draft reads as the creator’s reply, its source apart',
    async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signUpInBrowser(page, rig.api.origin, USERNAME, 'Coach Maya');
      await teachPlan(page);
      const toggle = await page.request.post('/api/toggle-status', { data: { creator: USERNAME } });
      expect(((await toggle.json()) as { isOnline: boolean }).isOnline).toBe(true);
      // A conversation long enough to fill the history, then the question the draft answers.
      await askAll(rig.api.origin, [
        'Hi coach! I signed up for my first marathon.',
        'I have been running three times a week for a year.',
        'My longest run so far was 18 km, it went well.',
        'I am a bit worried about my knees on long runs.',
        'Also, do you have advice on shoes for the race?',
        QUESTION,
      ]);

      await page.getByRole('complementary').getByRole('button', { name: 'Chat Management' }).click();
      const row = page
        .getByRole('list', { name: 'Fan conversations' })
        .getByRole('article', { name: 'Runner Rita' });
      await row.waitFor({ timeout: 20_000 });
      await row.getByRole('button', { name: 'Chat', exact: true }).click();
      const modal = page.getByRole('dialog', { name: 'Conversation with Runner Rita' });
      const box = modal.getByLabel('Your message');
      await until(async () => (await box.inputValue()) !== '');

      // The draft is a reply the creator would send: the material's sentence, no quotation, no attribution.
      const draft = await box.inputValue();
      expect(draft).toBe('In week 9 the Sunday long run is 24 km at an easy pace.');
      expect(draft).not.toMatch(/[“”]|— from|Coach Maya's/);
      const note = modal.getByRole('region', { name: 'AI draft' });
      expect(await note.getByTestId('draft-sources').textContent()).toBe('Based on: marathon-plan.txt');

      const close = modal.getByRole('button', { name: 'Close', exact: true });
      const send = modal.getByRole('button', { name: 'Send Message' });
      for (const [width, height, name] of [
        [1280, 800, 'h6-conversation-draft-1280x800'],
        [390, 844, 'h6-conversation-draft-390x844'],
      ] as const) {
        await page.setViewportSize({ width, height });
        await note.waitFor();
        expect(await reachable(close), `Close at ${width}×${height}`).toBe(true);
        expect(await reachable(send), `Send at ${width}×${height}`).toBe(true);
        // The modal stays within the viewport; its body scrolls instead.
        const dialog = await modal.boundingBox();
        expect(dialog!.y).toBeGreaterThanOrEqual(0);
        expect(dialog!.y + dialog!.height).toBeLessThanOrEqual(height);
        await screenshot(page, name);
      }

      // Send works from the footer: the draft goes to the fan as the creator's message.
      await send.click();
      await note.waitFor({ state: 'detached' });
      await until(async () => (await box.inputValue()) === '');
    },
    SLOW,
  );
});
