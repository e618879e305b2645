import type { DbHandle } from '@fanpilot/db';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signUpInBrowser } from './helpers/browser.ts';
import { type DashboardRig, startDashboardRig } from './helpers/dashboard.ts';
import type { RunningApi } from './helpers/server.ts';

/**
 * The dashboard's inbox past what one page holds, in Chromium against the built api on PostgreSQL:
 * 60 fans and 650 messages written straight into the database. The side panel counts every fan,
 * "Load more conversations" reaches the oldest one, the search finds a fan beyond the first page,
 * the Unread filter shows only waiting fans, and a 120-message conversation opens at its newest
 * message and loads earlier pages without losing the creator's place.
 */

const USERNAME = 'creator';
const BASE_DB = process.env.TEST_DATABASE_URL;
const SLOW = 180_000;
const FANS = 60;
/** Pat 60 has the long conversation (and the latest activity). */
const BIG_FAN = 60;
const BIG_COUNT = 120;
const SMALL_COUNT = 9;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const fanName = (i: number) => `Pat ${pad(i)}`;
const text = (i: number, k: number) => `${fanName(i)} message ${pad(k, 3)}`;
/** Every third fan's last message waits for an answer. */
const waiting = (i: number) => i % 3 === 0;

describe.runIf(BASE_DB)('inbox at scale', () => {
  let api: RunningApi;
  let db: DbHandle;
  let rig: DashboardRig;
  let page: Page;
  let creatorId: string;
  const fanRowIds = new Map<number, string>();
  const base = Date.now() - 2 * 24 * 3_600_000;

  /** Fan i's conversation: fan and creator in turn, the last one pending for a waiting fan. */
  async function seed() {
    const creator = await db.db
      .selectFrom('creators')
      .select('id')
      .where('username', '=', USERNAME)
      .executeTakeFirstOrThrow();
    creatorId = creator.id;
    const fans = await db.db
      .insertInto('fans')
      .values(
        Array.from({ length: FANS }, (_, n) => ({
          creator_id: creatorId,
          fan_key: `scale_fan_${pad(n + 1)}`,
          name: fanName(n + 1),
          created_at: new Date(base),
          last_seen_at: new Date(base),
        })),
      )
      .returning(['id', 'fan_key'])
      .execute();
    for (const fan of fans) fanRowIds.set(Number(fan.fan_key.slice(-2)), fan.id);
    const rows = [];
    for (let i = 1; i <= FANS; i += 1) {
      const count = i === BIG_FAN ? BIG_COUNT : SMALL_COUNT;
      for (let k = 1; k <= count; k += 1) {
        const last = k === count;
        const fromFan = k % 2 === 1 || (last && waiting(i));
        rows.push({
          creator_id: creatorId,
          fan_id: fanRowIds.get(i) ?? null,
          sender: fromFan ? ('fan' as const) : ('creator' as const),
          body: text(i, k),
          status: fromFan ? (last && waiting(i) ? ('pending' as const) : ('answered' as const)) : null,
          fan_name: fromFan ? fanName(i) : null,
          created_at: new Date(base + i * 30 * 60_000 + k * 5_000),
        });
      }
    }
    await db.db.insertInto('messages').values(rows).execute();
    // The fans were written now, so their last activity reads now; it is their last message's time,
    // as for a fan whose first visit came before their messages. (Triggers own the column.)
    await db.db
      .updateTable('fans')
      .set((eb) => ({ last_activity_at: eb.fn.coalesce('last_message_at', 'created_at') }) as never)
      .where('creator_id', '=', creatorId)
      .execute();
    return rows.length;
  }

  /** The value beside a side-panel label. */
  const panelValue = (label: string) =>
    page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd');
  const rows = () => page.getByRole('list', { name: 'Fan conversations' }).getByRole('article');

  /** Whether `item` is at least partly inside the visible part of the scrolling `box`. */
  async function inView(item: Locator, box: Locator): Promise<boolean> {
    const [a, b] = await Promise.all([item.boundingBox(), box.boundingBox()]);
    if (!a || !b) return false;
    return a.y + a.height > b.y && a.y < b.y + b.height;
  }

  /** The text of the first message at least partly in view in the history. */
  const topVisible = (history: Locator) =>
    history.evaluate((list) => {
      const top = list.getBoundingClientRect().top;
      const item = [...list.children].find((child) => child.getBoundingClientRect().bottom > top + 1);
      return item?.querySelector('p:nth-of-type(2)')?.textContent ?? '';
    });

  beforeAll(async () => {
    rig = await startDashboardRig(BASE_DB);
    ({ api, page } = rig);
    db = rig.db!;
    page.on('pageerror', (error) => console.error(`page error on ${page.url()}:`, error.message));
  }, SLOW);

  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'counts every fan, pages to the oldest one, searches and filters on the server',
    async () => {
      await signUpInBrowser(page, api.origin, USERNAME, 'Coach Scale');
      await page.getByText('AI Chatbot Active').waitFor();

      expect(await seed()).toBeGreaterThan(600);
      await page.reload();
      // The overview's pending questions: every waiting one, not only those among recent messages.
      await page
        .getByRole('region', { name: 'Today at a glance' })
        .getByRole('listitem')
        .filter({ hasText: 'Pending questions' })
        .getByText('20', { exact: true })
        .waitFor({ timeout: 15_000 });

      await page.getByRole('complementary').getByRole('button', { name: 'Chat Management' }).click();
      await page.getByRole('heading', { name: 'Chat Management', level: 1 }).waitFor();
      await panelValue('Total fans').getByText('60', { exact: true }).waitFor({ timeout: 15_000 });
      await panelValue('Unanswered chats').getByText('20', { exact: true }).waitFor();
      await page.getByText('60 fans', { exact: true }).waitFor();
      await page.getByText('20 messages waiting from 20 fans', { exact: true }).waitFor();

      // The first page: the 25 latest; Load more until the oldest fan.
      await rows().first().waitFor();
      expect(await rows().count()).toBe(25);
      expect(await rows().first().getAttribute('aria-label')).toBe(fanName(FANS));
      expect(await rows().getByText(fanName(1), { exact: true }).count()).toBe(0);
      const more = page.getByRole('button', { name: 'Load more conversations' });
      for (const expected of [50, 60]) {
        await more.click();
        await page.waitForFunction(
          (n) => document.querySelectorAll('[aria-label="Fan conversations"] article').length === n,
          expected,
        );
      }
      await more.waitFor({ state: 'detached' });
      expect(await rows().last().getAttribute('aria-label')).toBe(fanName(1));
      const names = await rows().evaluateAll((articles) => articles.map((a) => a.getAttribute('aria-label')));
      expect(new Set(names).size).toBe(FANS);
      await screenshot(page, 'inbox-scale-all', true);

      // Search: a fan from far beyond the first page.
      const search = page.getByLabel('Search fans');
      await search.fill('pat 07');
      await page.waitForFunction(
        () => document.querySelectorAll('[aria-label="Fan conversations"] article').length === 1,
      );
      expect(await rows().first().getAttribute('aria-label')).toBe(fanName(7));
      await search.fill('nobody here');
      await page.getByText('No fan matches "nobody here".').waitFor();
      await search.fill('');
      await rows().nth(24).waitFor();

      // Unread: only the waiting fans, all 20 on one page.
      await page.getByLabel('Show').selectOption('unread');
      await page.waitForFunction(
        () => document.querySelectorAll('[aria-label="Fan conversations"] article').length === 20,
      );
      const waitingNames = await rows().evaluateAll((articles) =>
        articles.map((a) => a.getAttribute('aria-label') ?? ''),
      );
      expect(waitingNames.every((name) => Number(name.slice(4)) % 3 === 0)).toBe(true);
      expect(await rows().getByText('Awaiting response').count()).toBeGreaterThanOrEqual(20);
      expect(await more.count()).toBe(0);
      await page.getByLabel('Show').selectOption('answered');
      await page.waitForFunction(
        () => document.querySelectorAll('[aria-label="Fan conversations"] article').length === 25,
      );
      expect(await rows().getByText('Awaiting response').count()).toBe(0);
      await page.getByLabel('Show').selectOption('all');
      await rows().nth(24).waitFor();
    },
    SLOW,
  );

  it(
    'opens a 120-message conversation at its newest message and loads earlier ones in place',
    async () => {
      await rows()
        .filter({ hasText: fanName(BIG_FAN) })
        .first()
        .getByRole('button', { name: 'Chat', exact: true })
        .click();
      const modal = page.getByRole('dialog', { name: `Conversation with ${fanName(BIG_FAN)}` });
      const history = modal.getByRole('list', { name: 'Conversation history' });
      const newest = history.getByText(text(BIG_FAN, BIG_COUNT), { exact: true });
      await newest.waitFor();
      await expect.poll(() => inView(newest, history)).toBe(true);
      expect(await history.getByRole('listitem').count()).toBe(50);
      expect(await history.getByText(text(BIG_FAN, 1), { exact: true }).count()).toBe(0);
      await screenshot(page, 'inbox-scale-modal-newest');

      // A message arriving while the creator is at the bottom keeps the bottom in view.
      await db.db
        .insertInto('messages')
        .values({
          creator_id: creatorId,
          fan_id: fanRowIds.get(BIG_FAN) ?? null,
          sender: 'fan',
          body: text(BIG_FAN, BIG_COUNT + 1),
          status: 'pending',
          fan_name: fanName(BIG_FAN),
          created_at: new Date(),
        })
        .execute();
      const arrived = history.getByText(text(BIG_FAN, BIG_COUNT + 1), { exact: true });
      await arrived.waitFor({ timeout: 15_000 });
      await expect.poll(() => inView(arrived, history)).toBe(true);

      // Scrolling to the top loads the page before; the message that was on top stays in view.
      const firstShown =
        (await history.getByRole('listitem').first().locator('p').nth(1).textContent()) ?? '';
      expect(firstShown).toMatch(/^Pat 60 message \d{3}$/);
      await history.evaluate((list) => {
        list.scrollTop = 0;
      });
      expect(await topVisible(history)).toBe(firstShown);
      await page.waitForFunction(
        () => document.querySelectorAll('[aria-label="Conversation history"] > li').length >= 100,
      );
      await expect.poll(() => inView(history.getByText(firstShown, { exact: true }), history)).toBe(true);
      expect(await history.getByText(text(BIG_FAN, 1), { exact: true }).count()).toBe(0);

      // The button loads the rest; again the place is kept, and the first message is there.
      const before = await topVisible(history);
      await modal.getByRole('button', { name: 'Load earlier messages' }).click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[aria-label="Conversation history"] > li').length === n,
        BIG_COUNT + 1,
      );
      await expect.poll(() => inView(history.getByText(before, { exact: true }), history)).toBe(true);
      const oldest = history.getByText(text(BIG_FAN, 1), { exact: true });
      expect(await oldest.count()).toBe(1);
      await modal.getByRole('button', { name: 'Load earlier messages' }).waitFor({ state: 'detached' });
      await history.evaluate((list) => {
        list.scrollTop = 0;
      });
      await expect.poll(() => inView(oldest, history)).toBe(true);
      await screenshot(page, 'inbox-scale-modal-oldest');

      // Scrolled up, a new message keeps the creator's place and offers a jump down to it.
      await db.db
        .insertInto('messages')
        .values({
          creator_id: creatorId,
          fan_id: fanRowIds.get(BIG_FAN) ?? null,
          sender: 'fan',
          body: text(BIG_FAN, BIG_COUNT + 2),
          status: 'pending',
          fan_name: fanName(BIG_FAN),
          created_at: new Date(),
        })
        .execute();
      const jump = modal.getByRole('button', { name: 'New messages' });
      await jump.waitFor({ timeout: 15_000 });
      expect(await inView(oldest, history)).toBe(true);
      await jump.click();
      await expect
        .poll(() => inView(history.getByText(text(BIG_FAN, BIG_COUNT + 2), { exact: true }), history))
        .toBe(true);
      await jump.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Close' }).click();
      await modal.waitFor({ state: 'detached' });
    },
    SLOW,
  );
});
