import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesktop, screenshot, signUpInBrowser } from './helpers/browser.ts';
import { type DashboardRig, newFanId, startDashboardRig } from './helpers/dashboard.ts';
import { type RunningApi, startApi } from './helpers/server.ts';

/**
 * Issue 25 in Chromium, where a person sees it: who really answers (status card, Chatbot Settings),
 * "Try your chatbot", the embedded answerer's quote and its hand-over, a handed-over question
 * waiting in the inbox, a correction written on the answer in the conversation (sent to the fan,
 * and answering the next fan), a fan's thumbs down seen by the creator, and an answer's citation
 * markers shown as small links, never as raw [n].
 */

const USERNAME = 'creator';
const SLOW = 180_000;

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

const sidebar = (p: Page) => p.getByRole('complementary');
async function openSection(p: Page, name: string) {
  await sidebar(p).getByRole('button', { name }).click();
  await p.getByRole('heading', { name, level: 1 }).waitFor();
}

/** Uploads the plan as a TXT knowledge file through the api and waits until it is ready. */
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
    ).json()) as {
      pending: number;
      active: number;
    };
    return progress.pending === 0 && progress.active === 1;
  });
}

/** A fan's question as the fan app sends it; the fan's id and cookie. */
async function ask(origin: string, message: string, fanName: string, fanId = newFanId()) {
  const response = await fetch(`${origin}/api/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ creator: USERNAME, message, fanId, fanName }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return { fanId, cookie };
}

async function chatOf(origin: string, fan: { fanId: string; cookie: string }) {
  const r = await fetch(`${origin}/api/chatlog/fan/${fan.fanId}?creator=${USERNAME}`, {
    headers: { cookie: fan.cookie },
  });
  return (
    (await r.json()) as { messages: { id: string; from: string; message: string; status: string | null }[] }
  ).messages;
}

describe('without a model key (the embedded answerer)', () => {
  let rig: DashboardRig;
  let api: RunningApi;
  let page: Page;

  beforeAll(async () => {
    rig = await startDashboardRig();
    ({ api, page } = rig);
  }, SLOW);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'says no model answers and what to set; the playground quotes the material or hands over, for free',
    async () => {
      await signUpInBrowser(page, api.origin, USERNAME, 'Coach Maya');
      const status = page.locator('section', { has: page.getByRole('heading', { name: 'Chatbot status' }) });
      await status.getByText('No AI model is configured').waitFor();
      await status.getByText('Set OPENAI_API_KEY on the server to answer with gpt-4o-mini.').waitFor();
      await page.getByRole('button', { name: 'Chatbot Settings' }).first().click();
      const settings = page.getByRole('dialog', { name: 'Chatbot Settings' });
      await settings.getByText('Set OPENAI_API_KEY on the server to answer with gpt-4o-mini.').waitFor();
      await settings.getByRole('button', { name: 'Close' }).first().click();

      await teachPlan(page);
      const usage = async () =>
        (await (await page.request.get(`/api/creators/username/${USERNAME}/usage`)).json()) as {
          creditsUsed: number;
        };
      const before = await usage();
      const card = page.locator('section', { has: page.getByRole('heading', { name: 'Try your chatbot' }) });
      await card.getByLabel('Your question').fill('How long is the Sunday long run in week 9?');
      await card.getByRole('button', { name: 'Ask', exact: true }).click();
      const answer = card.getByTestId('playground-answer');
      await answer.getByText('In week 9 the Sunday long run is 24 km at an easy pace.').waitFor();
      expect(await answer.textContent()).not.toMatch(/away right now|not a personal reply/);
      await card.getByTestId('playground-source').getByText('marathon-plan.txt').waitFor();
      await card.getByText('Quoted by the embedded answerer').waitFor();
      await card.getByText(/Passages found \(\d+\)/).click();
      await card.getByTestId('playground-passages').getByText('Week 10: the taper begins').waitFor();
      await screenshot(page, 'try-your-chatbot-embedded');

      await card.getByLabel('Your question').fill('Hi Maya!');
      await card.getByRole('button', { name: 'Ask', exact: true }).click();
      await answer.getByText("I couldn't find this in").waitFor();
      await card.getByText('it would wait in your inbox').waitFor();
      // Free and outside the inbox.
      expect((await usage()).creditsUsed).toBe(before.creditsUsed);
      const conversations = (await (
        await page.request.get(`/api/creators/username/${USERNAME}/conversations`)
      ).json()) as { conversations: unknown[] };
      expect(conversations.conversations).toEqual([]);
    },
    SLOW,
  );

  it(
    'a handed-over question waits in the inbox; a correction written on the answer goes to the fan and answers the next one',
    async () => {
      const dana = await ask(api.origin, 'Do you ship the plan to Canada?', 'Dana');
      await until(async () => (await chatOf(api.origin, dana)).some((m) => m.from === 'Creatorai'));
      const chat = await chatOf(api.origin, dana);
      expect(chat[0]).toMatchObject({ from: 'fan', status: 'pending' });
      expect(chat[1]!.message).toContain('passed your question on');

      // Handed over, it is a question the content does not answer: on the gaps card until corrected.
      await page.reload();
      await openSection(page, 'Dashboard');
      const gaps = page.locator('section', { hasText: "Questions your content doesn't answer" });
      await gaps.getByText('Do you ship the plan to Canada?').first().waitFor();

      await openSection(page, 'Chat Management');
      const row = page
        .getByRole('list', { name: 'Fan conversations' })
        .getByRole('article', { name: 'Dana' });
      await row.getByText('Awaiting response').first().waitFor();
      await page.getByText('1 message waiting from 1 fan', { exact: true }).waitFor();

      await row.getByRole('button', { name: 'Chat', exact: true }).click();
      const modal = page.getByRole('dialog', { name: 'Conversation with Dana' });
      const history = modal.getByRole('list', { name: 'Conversation history' });
      await history.getByText('Awaiting response').waitFor();
      await history.getByRole('button', { name: 'Correct this answer' }).click();
      const form = modal.getByTestId('correction-form');
      expect(await form.getByLabel('Question').inputValue()).toBe('Do you ship the plan to Canada?');
      await form.getByLabel('The right answer').fill('Yes: the printed plan ships to Canada in ten days.');
      await screenshot(page, 'correction-in-conversation');
      await form.getByRole('button', { name: 'Save correction' }).click();
      await page.getByText('Correction saved and sent to the fan.').first().waitFor();
      await history.getByText('Yes: the printed plan ships to Canada in ten days.').waitFor();
      expect(await history.getByText('Awaiting response').count()).toBe(0);
      await modal.getByRole('button', { name: 'Close' }).first().click();
      await row.getByText('Conversation complete').waitFor();
      expect((await chatOf(api.origin, dana)).at(-1)).toMatchObject({ from: 'creator', status: null });
      // Corrected, it has left the gaps card.
      await openSection(page, 'Dashboard');
      await gaps.getByText('Do you ship the plan to Canada?').waitFor({ state: 'detached' });
      await gaps.scrollIntoViewIfNeeded();
      await screenshot(page, 'gaps-card-after-correction');
      await openSection(page, 'Chat Management');

      // The next fan, in other words: answered from the correction, its marker a small mark, not "[1]".
      const eli = await ask(api.origin, 'do you ship the plan to canada', 'Eli');
      const reply = await until(async () =>
        (await chatOf(api.origin, eli)).find((m) => m.from === 'Creatorai'),
      );
      expect(reply.message).toBe('Yes: the printed plan ships to Canada in ten days. [1]');
      const eliRow = page
        .getByRole('list', { name: 'Fan conversations' })
        .getByRole('article', { name: 'Eli' });
      await eliRow.getByRole('button', { name: 'Chat', exact: true }).click();
      const eliModal = page.getByRole('dialog', { name: 'Conversation with Eli' });
      const eliHistory = eliModal.getByRole('list', { name: 'Conversation history' });
      await eliHistory.getByText('ships to Canada in ten days.').waitFor();
      await eliHistory.getByTestId('citation-marker').waitFor();
      expect(await eliHistory.textContent()).not.toContain('[1]');
      await eliModal.getByRole('button', { name: 'Close' }).first().click();
    },
    SLOW,
  );

  it(
    'a fan rates an answer down in the fan app; the creator sees it on the answer and in the list to correct',
    async () => {
      const fanPage = await rig.context.newPage();
      await fanPage.goto(`/pwa/${USERNAME}`);
      const box = fanPage.getByRole('textbox', { name: 'Message' });
      await box.fill('How long is the Sunday long run in week 9?');
      await box.press('Enter');
      const ai = fanPage.getByTestId('message-ai');
      await ai.waitFor({ timeout: 30_000 });
      await fanPage.getByTestId('citation').first().waitFor();
      const rated = fanPage.waitForResponse((r) => r.url().includes('/rating'));
      await fanPage.getByRole('button', { name: 'Not helpful' }).click();
      const response = await rated;
      expect(response.status(), await response.text()).toBe(200);
      await fanPage.getByTestId('rate-comment').fill('I wanted the pace too');
      await fanPage.getByTestId('rate-comment-send').click();
      await fanPage.getByText('Thanks for your feedback.').waitFor();
      expect(await fanPage.getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      await screenshot(fanPage, 'fan-rates-answer');
      // One rating per answer: changing it replaces it.
      await fanPage.getByRole('button', { name: 'Helpful answer' }).click();
      await until(async () => {
        const r = await page.request.get(`/api/creators/username/${USERNAME}/poor-answers`);
        return ((await r.json()) as { answers: unknown[] }).answers.length === 0;
      });
      await fanPage.getByRole('button', { name: 'Not helpful' }).click();
      await fanPage.getByTestId('rate-comment').fill('I wanted the pace too');
      await fanPage.getByTestId('rate-comment-send').click();
      await fanPage.getByText('Thanks for your feedback.').waitFor();
      await fanPage.close();

      await openSection(page, 'Dashboard');
      const poor = page.locator('section', {
        has: page.getByRole('heading', { name: 'Answers fans rated down' }),
      });
      const item = poor.getByTestId('poor-answer');
      await item.getByText('Q: How long is the Sunday long run in week 9?').waitFor({ timeout: 15_000 });
      await item.getByText(/I wanted the pace too/).waitFor();
      await screenshot(page, 'poor-answers-card');
      await item.getByRole('button', { name: 'Correct this answer' }).click();
      await item.getByLabel('The right answer').fill('24 km at 6:30 per km.');
      await item.getByRole('button', { name: 'Save correction' }).click();
      await page.getByText('Correction saved and sent to the fan.').first().waitFor();
      await item.getByText('Corrected').waitFor();

      // The corrections card lists it, with the fans who got a wrong answer (this one already sent it).
      const corrections = page.locator('section', {
        has: page.getByRole('heading', { name: 'Your corrections' }),
      });
      // (The correction of the test before is listed too.)
      const correction = corrections
        .getByTestId('correction')
        .filter({ hasText: 'Q: How long is the Sunday long run in week 9?' });
      await correction.waitFor({ timeout: 15_000 });
      await correction.getByText('24 km at 6:30 per km.').waitFor();
      await correction.getByRole('button', { name: 'Fans who got a wrong answer' }).click();
      await correction
        .getByTestId('correction-fans')
        .getByText(/asked “How long is the Sunday long run in week 9\?”.*sent/)
        .waitFor();
      await screenshot(page, 'corrections-card');

      await openSection(page, 'Chat Management');
      const rows = page.getByRole('list', { name: 'Fan conversations' });
      // The row of the fan who rated (the list may first show its cached order, so not "the first row").
      await rows
        .getByRole('article')
        .filter({ hasText: 'How long is the Sunday long run in week 9?' })
        .getByRole('button', { name: 'Chat', exact: true })
        .click();
      const modal = page.getByRole('dialog', { name: /Conversation with/ });
      await modal
        .getByTestId('answer-rating')
        .getByText(/not helpful: “I wanted the pace too”/)
        .waitFor();
      await modal.getByRole('button', { name: 'Close' }).first().click();

      // Deleted from the corrections card, after a confirmation.
      await openSection(page, 'Dashboard');
      await corrections
        .getByRole('button', { name: 'Delete: How long is the Sunday long run in week 9?' })
        .click();
      await page
        .getByRole('alertdialog', { name: 'Delete this correction?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByText('Correction deleted').first().waitFor();
      await correction.waitFor({ state: 'detached' });
      const left = await page.request.get(`/api/creators/username/${USERNAME}/corrections`);
      expect(
        ((await left.json()) as { corrections: { question: string }[] }).corrections.map((c) => c.question),
      ).toEqual(['Do you ship the plan to Canada?']);
    },
    SLOW,
  );
});

describe('with a model key', () => {
  let api: RunningApi;
  let openai: FakeOpenAI;
  let close: () => Promise<void>;
  let page: Page;

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    openai.answerWith((r) => {
      const system = String(r.messages[0]!.content);
      const n = /\[(\d+)\] marathon-plan\.txt/.exec(system)?.[1];
      return n ? `The Sunday long run in week 9 is 24 km [${n}].` : 'I do not know. [not in knowledge]';
    });
    api = await startApi({
      env: {
        REDIS_URL: undefined,
        OPENAI_API_KEY: 'sk-e2e',
        OPENAI_BASE_URL: openai.baseUrl,
        STRIPE_SECRET_KEY: undefined,
      },
    });
    const desktop = await openDesktop(api.origin);
    page = desktop.page;
    close = desktop.close;
  }, SLOW);
  afterAll(async () => {
    await close?.();
    await api?.stop();
    await openai?.close();
  });

  it(
    'names the model that answers; the playground shows the cited source as a small link, never [n]',
    async () => {
      await signUpInBrowser(page, api.origin, USERNAME, 'Coach Maya');
      const status = page.locator('section', { has: page.getByRole('heading', { name: 'Chatbot status' }) });
      await status.getByText('Fans are answered by gpt-4o-mini.').waitFor();
      await teachPlan(page);
      const card = page.locator('section', { has: page.getByRole('heading', { name: 'Try your chatbot' }) });
      await card.getByLabel('Your question').fill('How far is the Sunday long run in week 9?');
      await card.getByRole('button', { name: 'Ask', exact: true }).click();
      const answer = card.getByTestId('playground-answer');
      await answer.getByText('The Sunday long run in week 9 is 24 km').waitFor();
      expect(await answer.textContent()).not.toContain('[1]');
      const marker = answer.getByRole('button', { name: 'Source 1: marathon-plan.txt' });
      await marker.waitFor();
      expect(await marker.textContent()).toBe('1');
      expect(await card.getByTestId('playground-source').count()).toBe(1);
      await card.getByText('Written by gpt-4o-mini.').waitFor();
      await screenshot(page, 'try-your-chatbot-model');
    },
    SLOW,
  );

  it(
    'drafts the reply to a fan who asks while the creator is Online; edited and sent, it is the creator’s, for one credit',
    async () => {
      const toggle = await page.request.post('/api/toggle-status', { data: { creator: USERNAME } });
      expect(((await toggle.json()) as { isOnline: boolean }).isOnline).toBe(true);
      const usage = async () =>
        (
          (await (await page.request.get(`/api/creators/username/${USERNAME}/usage`)).json()) as {
            creditsUsed: number;
          }
        ).creditsUsed;
      const used = await usage();
      const question = 'How far is the Sunday long run in week 9?';
      const fan = await ask(api.origin, question, 'Runner Rita');

      await openSection(page, 'Chat Management');
      const row = page
        .getByRole('list', { name: 'Fan conversations' })
        .getByRole('article', { name: 'Runner Rita' });
      await row.waitFor({ timeout: 20_000 });
      await row.getByRole('button', { name: 'Chat', exact: true }).click();
      const modal = page.getByRole('dialog', { name: 'Conversation with Runner Rita' });
      const box = modal.getByLabel('Your message');
      // The draft fills the empty reply box, without markers, its source named beside it.
      await until(async () => (await box.inputValue()) === 'The Sunday long run in week 9 is 24 km.');
      const note = modal.getByRole('region', { name: 'AI draft' });
      await note.getByText('Based on: marathon-plan.txt').waitFor();
      await screenshot(page, 'ai-draft-in-reply-box');
      // Nothing of it reached the fan, and nothing was charged yet.
      expect((await chatOf(api.origin, fan)).map((m) => m.from)).toEqual(['fan']);
      expect(await usage()).toBe(used);

      await box.fill('The Sunday long run in week 9 is 24 km. Keep it easy, Rita!');
      await modal.getByRole('button', { name: 'Send Message' }).click();
      const reply = await until(async () =>
        (await chatOf(api.origin, fan)).find((m) => m.from === 'creator'),
      );
      expect(reply.message).toBe('The Sunday long run in week 9 is 24 km. Keep it easy, Rita!');
      expect(await usage()).toBe(used + 1);
      await note.waitFor({ state: 'detached' });
      await screenshot(page, 'ai-draft-sent');
    },
    SLOW,
  );
});
