import { randomUUID } from 'node:crypto';
import { ALERT_KINDS, type NotificationSettings } from '@fanpilot/contracts';
import { adjustCredits, failKnowledgeRun, knowledgeRepository } from '@fanpilot/core';
import {
  type FakeOpenAI,
  type ReceivedMail,
  type SmtpService,
  seedKnowledge,
  startFakeOpenAI,
  startSmtpService,
} from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  FanBrowser,
  json,
  onboardedCreator,
  startTestApp,
  type TestApp,
} from '../helpers.ts';
import { type Device, startPushService } from '../support/push-service.ts';

/**
 * Creator alerts end to end (record 0061): facts committed by requests and by the background (the
 * AI handing over, an answer using up the budget or the credits, a source failing, a question left
 * waiting) reach the creator as ONE email per burst through the real nodemailer transport to a
 * loopback SMTP server, and as a Web Push to their own browser through the loopback push service;
 * quiet hours hold them; the email's one-click unsubscribe works without signing in.
 */
const WINDOW_MS = 600;

/** A header as the raw message carries it (mailparser turns List-* headers into objects). */
const header = (mail: ReceivedMail, name: string) =>
  (mail.parsed.headerLines.find((h) => h.key === name)?.line ?? '')
    .replace(/^[^:]+:\s*/, '')
    .replace(/\r?\n\s+/g, ' ');

describe('creator alerts by email and push', () => {
  let t: TestApp;
  let smtp: SmtpService;
  let push: Awaited<ReturnType<typeof startPushService>>;
  let openai: FakeOpenAI;
  let offsetMs = 0;

  const allOn = (): NotificationSettings => ({
    kinds: Object.fromEntries(
      ALERT_KINDS.map((k) => [k, { email: true, push: true }]),
    ) as NotificationSettings['kinds'],
    waitMinutes: 60,
    quietHours: null,
    timeZone: 'UTC',
    digest: 'off',
    digestHour: 8,
  });
  const settingsPath = (username: string) => `/api/creators/username/${username}/notifications`;
  const save = (c: { cookie: string; username: string }, body: NotificationSettings) =>
    call(t, 'PUT', settingsPath(c.username), c.cookie, body);
  const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
  /** A creator who chose every alert, no digest; Offline unless told. */
  const creator = async (name: string, settings: Partial<NotificationSettings> = {}) => {
    const c = await onboardedCreator(t, name);
    expect((await save(c, { ...allOn(), ...settings })).status).toBe(200);
    return { ...c, email: `${name}@example.com` };
  };
  const goOnline = (c: { cookie: string; username: string }) =>
    call(t, 'POST', '/api/toggle-status', c.cookie, { creator: c.username });
  const subscribeDevice = async (c: { cookie: string; username: string }) => {
    const device = push.device();
    const res = await call(t, 'POST', `${settingsPath(c.username)}/push`, c.cookie, {
      subscription: device.subscription,
    });
    expect(res.status).toBe(200);
    return device;
  };
  const pushesTo = (device: Device) => push.received.filter((p) => p.device === device.id);

  beforeAll(async () => {
    smtp = await startSmtpService();
    push = await startPushService();
    openai = await startFakeOpenAI();
    openai.answerWith(() => 'Feed it twice a day [1].');
    t = await startTestApp({
      env: {
        SMTP_URL: smtp.url,
        PUSH_ALLOWED_HOSTS: '127.0.0.1',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseUrl,
      },
      alerts: { windowMs: WINDOW_MS, sweepMs: 150, clock: () => new Date(Date.now() + offsetMs) },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await push?.close();
    await openai?.close();
  });

  it('a question handed to an Online creator: one email with a link to the conversation, and a push', async () => {
    const c = await creator('ona');
    const device = await subscribeDevice(c);
    await goOnline(c);
    const fan = new FanBrowser(t);
    expect((await fan.ask(c.username, 'Can I freeze my starter?')).status).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(c.email));
    expect(mail.subject).toMatch(/is waiting for your answer$/);
    expect(mail.text).toContain(
      'asked: "Can I freeze my starter?" You are Online, so this question waits for your answer.',
    );
    const link = /http:\/\/127\.0\.0\.1:\d+\/admin\/ona\?fan=mobile_fan_[0-9a-f]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    // The link opens the dashboard (the page itself; the dashboard opens the conversation).
    expect(header(mail, 'list-unsubscribe')).toMatch(
      /^<http:\/\/127\.0\.0\.1:\d+\/api\/notifications\/unsubscribe\?token=[^>]+>$/,
    );
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const pushed = await eventually(async () => pushesTo(device)[0]);
    expect(pushed.payload).toMatchObject({
      url: new URL(link!).pathname + new URL(link!).search,
      tag: 'alerts-ona',
    });
    expect((pushed.payload as { title: string }).title).toMatch(/is waiting for your answer$/);
  });

  it('a failing SMTP server and push service are retried with back-off; the request never waits', async () => {
    const c = await creator('fay');
    const device = await subscribeDevice(c);
    await goOnline(c);
    smtp.refuseNext(2);
    push.failNext(1);
    const fan = new FanBrowser(t);
    const started = Date.now();
    expect((await fan.ask(c.username, 'Asked while mail is down?')).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(WINDOW_MS);
    const mail = await smtp.waitFor((m) => m.to.includes(c.email), 15_000);
    expect(mail.text).toContain('"Asked while mail is down?"');
    await eventually(async () => pushesTo(device)[0], 15_000);
    expect(push.refused.some((r) => r.device === device.id && r.status === 503)).toBe(true);
    // Refused twice (451), sent on the third try.
    const row = await eventually(async () =>
      (
        await t.db.db
          .selectFrom('mail_outbox')
          .select(['attempts', 'sent_at'])
          .where('to_address', '=', c.email)
          .execute()
      ).find((r) => r.sent_at !== null),
    );
    expect(row.attempts).toBe(3);
  });

  it('a burst of fifty questions is one email, not fifty', async () => {
    const c = await creator('bert');
    await goOnline(c);
    // The burst lands inside one collecting window however loaded the machine is: the alerts'
    // clock stands a minute back while the fans ask, so no window closes before the last question.
    offsetMs = -60_000;
    try {
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const fan = new FanBrowser(t);
          expect((await fan.ask(c.username, `Burst question ${i}?`)).status).toBe(200);
        }),
      );
    } finally {
      offsetMs = 0;
    }
    const mail = await smtp.waitFor((m) => m.to.includes(c.email));
    await new Promise((r) => setTimeout(r, WINDOW_MS * 3));
    expect(mailsTo(c.email)).toHaveLength(1);
    expect(mail.subject).toBe('50 fans are waiting for your answer');
    expect(mail.text.match(/Burst question \d+\?/g)).toHaveLength(50);
    expect(mail.text).toContain('/admin/bert?tab=chats');
  });

  it('the AI gave up (its tries ran out): the question is handed over and the creator alerted', async () => {
    const c = await creator('gail');
    openai.failNext(1000, 503);
    try {
      const fan = new FanBrowser(t);
      expect((await fan.ask(c.username, 'Why is my crumb gummy?')).status).toBe(200);
      const mail = await smtp.waitFor((m) => m.to.includes(c.email), 20_000);
      expect(mail.text).toContain('"Why is my crumb gummy?" Your AI handed this question to you.');
    } finally {
      openai.failNext(0);
    }
  });

  it('a deleted chatbot: the fan reads that the creator answers, the question waits, and the email says why (record 0073)', async () => {
    const c = await creator('dora');
    expect((await call(t, 'DELETE', `/api/chatbots/${c.chatbotId}`, c.cookie)).status).toBe(200);
    // The fan's card: no AI to answer, and the status says so (never 'Offline - AI responding').
    const card = await json(await fetch(`${t.url}/api/public/creators/${c.username}`));
    expect(card).toMatchObject({
      isOnline: false,
      aiAvailable: false,
      statusText: 'Offline - Creator will answer',
    });
    const fan = new FanBrowser(t);
    const asked = await fan.ask(c.username, 'Do you sell rye flour?');
    expect(asked.status).toBe(200);
    expect(await json(asked)).toMatchObject({ aiWillAnswer: false });
    // The chat log's own copy of the card agrees.
    const log = await json(await fan.history(c.username));
    expect(log).toMatchObject({
      statusText: 'Offline - Creator will answer',
      creator: { aiAvailable: false },
    });
    const mail = await smtp.waitFor((m) => m.to.includes(c.email), 15_000);
    expect(mail.text).toContain(
      '"Do you sell rye flour?" You have no chatbot, so this question waits for you.',
    );
    expect(mail.text).not.toContain('Your AI handed this question to you');
    // Nothing answers it: it waits for the creator.
    expect((await fan.messages(c.username)).map((m) => [m.from, m.status])).toEqual([['fan', 'pending']]);
  });

  it("today's AI budget reached, then credits low and credits out", async () => {
    const c = await creator('budd');
    // A budget of one answer: the first question uses it up.
    await t.db.db.updateTable('chatbots').set({ daily_ai_budget: 1 }).where('id', '=', c.chatbotId).execute();
    await seedKnowledge(t.db.db, c.chatbotId, {
      url: 'https://budd.example/starter',
      title: 'Starter care',
      content: 'Feed your starter twice a day.',
    });
    const fan = new FanBrowser(t);
    expect((await fan.ask(c.username, 'How often do I feed my starter?')).status).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(c.email), 15_000);
    expect(mail.text).toContain("Your AI reached today's answer budget.");

    // Credits: 100 left, one answer makes 99 (low); then 1 left, one answer makes 0 (out).
    const credits = await creator('cody');
    await seedKnowledge(t.db.db, credits.chatbotId, {
      url: 'https://cody.example/starter',
      title: 'Starter care',
      content: 'Feed your starter twice a day.',
    });
    await adjustCredits(t.db.db, credits.creatorId, 100 - 1000);
    const f2 = new FanBrowser(t);
    expect((await f2.ask(credits.username, 'How often do I feed my starter?')).status).toBe(200);
    const low = await smtp.waitFor((m) => m.to.includes(credits.email), 15_000);
    expect(low.text).toContain('Your credits are running low: 99 left.');
    await adjustCredits(t.db.db, credits.creatorId, 1 - 99);
    expect((await f2.ask(credits.username, 'And how warm should it be?')).status).toBe(200);
    const out = await smtp.waitFor((m) => m.to.includes(credits.email) && m !== low, 15_000);
    expect(out.text).toContain('Your credits are used up.');
  });

  it('a knowledge source that failed', async () => {
    const c = await creator('sofi');
    const id = randomUUID();
    await knowledgeRepository(t.db.db).insert({
      id,
      chatbotId: c.chatbotId,
      type: 'url',
      url: 'https://sofi.example/gone',
      title: 'My baking page',
    });
    await failKnowledgeRun(t.db.db, id, null, { final: true, reason: 'The page answered 404.' });
    const mail = await smtp.waitFor((m) => m.to.includes(c.email));
    expect(mail.subject).toBe('A knowledge source failed: My baking page');
    expect(mail.text).toContain('A knowledge source failed: My baking page.');
  });

  it('a question waiting longer than the chosen time', async () => {
    const c = await creator('walt', { waitMinutes: 5 });
    // Only the waiting alert is on: the hand-over to an Online creator is not emailed.
    const only = allOn();
    only.kinds.question = { email: false, push: false };
    expect((await save(c, { ...only, waitMinutes: 5 })).status).toBe(200);
    await goOnline(c);
    const fan = new FanBrowser(t);
    expect((await fan.ask(c.username, 'Is rye flour fine?')).status).toBe(200);
    await new Promise((r) => setTimeout(r, WINDOW_MS * 2));
    expect(mailsTo(c.email)).toHaveLength(0);
    offsetMs = 6 * 60_000;
    try {
      const mail = await smtp.waitFor((m) => m.to.includes(c.email));
      expect(mail.text).toContain('is still waiting for an answer: "Is rye flour fine?"');
    } finally {
      offsetMs = 0;
    }
  });

  it("quiet hours hold alerts and send them after, in the creator's time zone", async () => {
    // Quiet from an hour ago to an hour from now, on Tokyo's clock.
    const tokyo = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Tokyo',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const at = (ms: number) => tokyo.format(new Date(Date.now() + ms));
    const c = await creator('quin', {
      timeZone: 'Asia/Tokyo',
      quietHours: { start: at(-3_600_000), end: at(3_600_000) },
    });
    await goOnline(c);
    const fan = new FanBrowser(t);
    expect((await fan.ask(c.username, 'Asked during quiet hours?')).status).toBe(200);
    await new Promise((r) => setTimeout(r, WINDOW_MS * 3));
    expect(mailsTo(c.email)).toHaveLength(0);
    // Two hours later quiet hours are over: the held alert goes.
    offsetMs = 2 * 3_600_000;
    try {
      const mail = await smtp.waitFor((m) => m.to.includes(c.email));
      expect(mail.text).toContain('"Asked during quiet hours?"');
    } finally {
      offsetMs = 0;
    }
  });

  it('one-click unsubscribe (RFC 8058) stops alert emails without signing in; pushes go on', async () => {
    const c = await creator('una');
    const device = await subscribeDevice(c);
    await goOnline(c);
    const first = new FanBrowser(t);
    expect((await first.ask(c.username, 'First question?')).status).toBe(200);
    const mail: ReceivedMail = await smtp.waitFor((m) => m.to.includes(c.email));
    const link = /^<(.+)>$/.exec(header(mail, 'list-unsubscribe'))![1]!;
    // A forged or altered link is refused.
    const forged = await fetch(
      link.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')),
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      },
    );
    expect(forged.status).toBe(400);
    expect((await json(forged)).error).toBe('invalid_unsubscribe_link');
    // What a mail client's Unsubscribe button sends: no cookie, no Origin of ours.
    const res = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example.com' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, stopped: 'alerts' });
    // The link in the email's text shows a page with the one button (a link scanner stops nothing).
    const pageRes = await fetch(link);
    expect(pageRes.status).toBe(200);
    expect(await pageRes.text()).toContain('<button type="submit">Unsubscribe</button>');

    const settings = await json(await call(t, 'GET', settingsPath(c.username), c.cookie));
    expect((settings.kinds as Record<string, { email: boolean; push: boolean }>).question).toEqual({
      email: false,
      push: true,
    });
    const before = pushesTo(device).length;
    const second = new FanBrowser(t);
    expect((await second.ask(c.username, 'Second question?')).status).toBe(200);
    await eventually(async () => pushesTo(device).length > before);
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    expect(mailsTo(c.email)).toHaveLength(1);
  });

  it('a refused address is noted as bounced on the settings page; saving tries email again', async () => {
    const c = await creator('bo');
    smtp.rejectRecipient(c.email);
    await goOnline(c);
    const fan = new FanBrowser(t);
    expect((await fan.ask(c.username, 'Anyone there?')).status).toBe(200);
    const settings = await eventually(async () => {
      const s = await json(await call(t, 'GET', settingsPath(c.username), c.cookie));
      return s.bounce ? s : undefined;
    });
    expect((settings.bounce as { reason: string }).reason).toMatch(/550|No such user/);
    expect(mailsTo(c.email)).toHaveLength(0);
    // Saved again: the bounce is cleared.
    const saved = await json(await save(c, allOn()));
    expect(saved.bounce).toBeNull();
  });

  it('settings: each kind per channel, waiting time, quiet hours, zone, digest; bad input is a 400', async () => {
    const c = await creator('seth');
    const body = allOn();
    body.kinds.credits_low = { email: false, push: true };
    const saved = await json(
      await save(c, {
        ...body,
        waitMinutes: 30,
        quietHours: { start: '22:00', end: '07:00' },
        timeZone: 'Europe/Paris',
        digest: 'weekly',
        digestHour: 7,
      }),
    );
    expect(saved).toMatchObject({
      waitMinutes: 30,
      quietHours: { start: '22:00', end: '07:00' },
      timeZone: 'Europe/Paris',
      digest: 'weekly',
      digestHour: 7,
      email: 'seth@example.com',
      bounce: null,
      pushDevices: 0,
    });
    expect((saved.kinds as Record<string, unknown>).credits_low).toEqual({ email: false, push: true });
    for (const bad of [
      { ...body, timeZone: 'Mars/Olympus' },
      { ...body, waitMinutes: 1 },
      { ...body, quietHours: { start: '25:00', end: '07:00' } },
      { ...body, digest: 'hourly' },
      { ...body, kinds: { question: { email: true } } },
    ]) {
      const res = await save(c, bad as NotificationSettings);
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    // Another creator's settings are not yours; signed out is 401.
    const other = await onboardedCreator(t, 'sia');
    expect((await call(t, 'GET', settingsPath(other.username), c.cookie)).status).toBe(403);
    expect((await fetch(`${t.url}${settingsPath(c.username)}`)).status).toBe(401);
    // A push subscription on a host that is no push service is refused.
    const res = await call(t, 'POST', `${settingsPath(c.username)}/push`, c.cookie, {
      subscription: { ...push.device().subscription, endpoint: 'https://evil.example/push/x' },
    });
    expect(res.status).toBe(400);
  });
});
