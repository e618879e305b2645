import { randomBytes } from 'node:crypto';
import { memoryAvailable } from '@fanpilot/answers';
import { hashToken } from '@fanpilot/core';
import { type FakeOpenAI, type RecordedChatRequest, seedKnowledge, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  FanBrowser,
  json,
  onboard,
  setCookies,
  startTestApp,
  type TestApp,
} from '../helpers.ts';

// Per-fan memory (issue 37, docs/decisions/0079) end to end with the model stand-in: extracted after
// an answer, used in the next prompt, shown to and deleted by the fan, corrected by the creator,
// isolated between fans and creators, moved with a transfer, deleted with the conversation.

const EXTRACTION = 'You keep a short memory of a fan';
const system = (r: RecordedChatRequest) => String(r.messages[0]!.content);
const isExtraction = (r: RecordedChatRequest) => String(r.messages[0]?.content ?? '').includes(EXTRACTION);
const lastUser = (r: RecordedChatRequest) =>
  String([...r.messages].reverse().find((m) => m.role === 'user')?.content ?? '');

interface Memory {
  available: boolean;
  enabled: boolean;
  items: { id: string; text: string; sourceMessageId: string | null; correctedByCreator: boolean }[];
}

describe('per-fan memory', () => {
  let t: TestApp;
  let openai: FakeOpenAI;
  /** What the extraction answers for the fan messages it is shown (null: malformed). */
  let extract: (listed: string) => string;

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    t = await startTestApp({
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl, ASK_RATE_LIMIT_PER_IP: '1000' },
    });
  });
  afterAll(async () => {
    await t.close();
    await openai.close();
  });
  beforeEach(() => {
    openai.requests.length = 0;
    extract = (listed) => {
      const facts: { text: string; message: number }[] = [];
      for (const line of listed.split('\n')) {
        const n = Number(/^\[(\d+)\]/.exec(line)?.[1] ?? 0);
        if (/knee/i.test(line)) facts.push({ text: 'Has a sore left knee.', message: n });
        if (/marathon/i.test(line)) facts.push({ text: 'Trains for a marathon in May.', message: n });
        if (/call me (\w+)/i.test(line))
          facts.push({ text: `Goes by ${/call me (\w+)/i.exec(line)![1]}.`, message: n });
      }
      return JSON.stringify({ facts });
    };
    openai.answerWith((r) => (isExtraction(r) ? extract(lastUser(r)) : 'Run three times a week.'));
  });

  /** The answers' prompts (not the extraction's, nor a follow-up's rewrite). */
  const answerPrompts = () =>
    openai.requests.filter((r) => !isExtraction(r) && !system(r).startsWith('Rewrite the fan'));

  async function creator(name: string) {
    const cookie = await onboard(t, name);
    const row = await t.db.db
      .selectFrom('creators as c')
      .innerJoin('chatbots as b', 'b.creator_id', 'c.id')
      .select(['c.id', 'b.id as botId'])
      .where('c.username', '=', name)
      .executeTakeFirstOrThrow();
    await seedKnowledge(t.db.db, row.botId, {
      url: `https://${name}.example/plan`,
      title: 'Running plan',
      content: 'Run three times a week, with one long run on Sunday.',
    });
    return { cookie, id: row.id };
  }
  /** Asks, waits for the AI's answer and for the memory job after it. */
  async function askAndSettle(fan: FanBrowser, to: string, text: string) {
    const asked = await json(await fan.ask(to, text));
    const id = (asked.message as unknown as { id: string }).id;
    await eventually(async () => (await fan.messages(to)).some((m) => m.replyTo === id) || null);
    await t.background.idle();
    return { id, asked };
  }
  /**
   * A forget command: answered by the confirmation only. The message is stored as answered, no
   * answer is asked of the model, no AI reply comes and no credit is spent.
   */
  async function forget(fan: FanBrowser, to: string, text: string) {
    const credits = async () =>
      (
        await t.db.db
          .selectFrom('credit_ledger as l')
          .innerJoin('creators as c', 'c.id', 'l.creator_id')
          .select(['l.delta', 'l.reason'])
          .where('c.username', '=', to)
          .orderBy('l.id')
          .execute()
      ).map((r) => [r.reason, r.delta]);
    const before = await credits();
    openai.requests.length = 0;
    const res = await fan.ask(to, text);
    expect(res.status).toBe(200);
    const asked = await json(res);
    expect(asked.aiWillAnswer).toBe(false);
    const id = (asked.message as unknown as { id: string }).id;
    await t.background.idle();
    const row = await t.db.db
      .selectFrom('messages')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('answered');
    expect((await fan.messages(to)).filter((m) => m.replyTo === id)).toEqual([]);
    expect(answerPrompts()).toEqual([]);
    expect(await credits()).toEqual(before);
    return { id, asked };
  }
  const memoryOf = async (fan: FanBrowser, to: string, cookie = fan.cookie) => {
    const res = await call(t, 'GET', `/api/chatlog/fan/${fan.fanId}/memory?creator=${to}`, cookie);
    expect(res.status).toBe(200);
    return (await json(res)) as unknown as Memory;
  };
  const fanRow = async (fan: FanBrowser, creatorId: string) =>
    (
      await t.db.db
        .selectFrom('fans')
        .select('id')
        .where('fan_key', '=', fan.fanId)
        .where('creator_id', '=', creatorId)
        .executeTakeFirstOrThrow()
    ).id;

  it('extracts, uses, shows, deletes, corrects, isolates, moves with a transfer and goes with the conversation', async () => {
    const mia = await creator('miamem');
    const nia = await creator('niamem');
    const ann = new FanBrowser(t);
    const bob = new FanBrowser(t);

    // Extracted after the answer, each fact with the message it came from.
    const first = await askAndSettle(
      ann,
      'miamem',
      'I train for a marathon and my left knee hurts. How often should I run?',
    );
    const memory = await memoryOf(ann, 'miamem');
    expect(memory).toMatchObject({ available: true, enabled: true });
    expect(memory.items.map((i) => [i.text, i.sourceMessageId])).toEqual([
      ['Has a sore left knee.', first.id],
      ['Trains for a marathon in May.', first.id],
    ]);
    // Once per fan turn: one extraction call for the one turn.
    expect(openai.requests.filter(isExtraction)).toHaveLength(1);
    expect(lastUser(openai.requests.find(isExtraction)!)).toContain('[1] I train for a marathon');

    // Used in the next answer's prompt.
    openai.requests.length = 0;
    await askAndSettle(ann, 'miamem', 'Can I run on Sunday?');
    expect(system(answerPrompts()[0]!)).toContain('- Has a sore left knee.');
    expect(openai.requests.filter(isExtraction)).toHaveLength(1);

    // Another fan of the same creator, and the same fan id with another creator, see nothing of it.
    openai.requests.length = 0;
    await askAndSettle(bob, 'miamem', 'How often should I run?');
    expect(system(answerPrompts()[0]!)).not.toContain('knee');
    expect((await memoryOf(bob, 'miamem')).items).toEqual([]);
    openai.requests.length = 0;
    await askAndSettle(ann, 'niamem', 'How often should I run?');
    expect(system(answerPrompts()[0]!)).not.toContain('knee');
    expect((await memoryOf(ann, 'niamem')).items).toEqual([]);
    // Another browser cannot read Ann's memory.
    const stranger = await call(t, 'GET', `/api/chatlog/fan/${ann.fanId}/memory?creator=miamem`, bob.cookie);
    expect(stranger.status).toBe(403);

    // The fan deletes an item: gone from the next prompt.
    const knee = memory.items[0]!;
    const deleted = await call(
      t,
      'DELETE',
      `/api/chatlog/fan/${ann.fanId}/memory/${knee.id}?creator=miamem`,
      ann.cookie,
    );
    expect(deleted.status).toBe(200);
    expect(((await json(deleted)) as unknown as Memory).items.map((i) => i.text)).toEqual([
      'Trains for a marathon in May.',
    ]);
    openai.requests.length = 0;
    await askAndSettle(ann, 'miamem', 'What about hills?');
    expect(system(answerPrompts()[0]!)).not.toContain('knee');
    expect(system(answerPrompts()[0]!)).toContain('Trains for a marathon in May.');

    // The creator sees it beside the conversation and corrects it; another creator cannot.
    const annRow = await fanRow(ann, mia.id);
    const path = `/api/creators/username/miamem/fans/${ann.fanId}/memory`;
    const seen = (await json(await call(t, 'GET', path, mia.cookie))) as unknown as Memory;
    const marathon = seen.items[0]!;
    const corrected = await call(t, 'PATCH', `${path}/${marathon.id}`, mia.cookie, {
      text: 'Trains for a marathon in June.',
    });
    expect(await json(corrected)).toMatchObject({
      text: 'Trains for a marathon in June.',
      correctedByCreator: true,
    });
    expect(
      (await call(t, 'GET', `/api/creators/username/niamem/fans/${annRow}/memory`, nia.cookie)).status,
    ).toBe(404);
    expect((await call(t, 'GET', path, nia.cookie)).status).toBe(403);
    expect((await call(t, 'PATCH', `${path}/${marathon.id}`, mia.cookie, { text: '  ' })).status).toBe(400);
    openai.requests.length = 0;
    await askAndSettle(ann, 'miamem', 'And intervals?');
    expect(system(answerPrompts()[0]!)).toContain('Trains for a marathon in June.');

    // Moves with a transfer: the new phone reads it, the old one no longer.
    const made = await call(t, 'POST', '/api/fan-transfers', ann.cookie, {
      creator: 'miamem',
      fanId: ann.fanId,
    });
    const token = new URL(((await json(made)) as unknown as { url: string }).url).hash.replace(
      /^#transfer=/,
      '',
    );
    const redeemed = await call(t, 'POST', '/api/fan-transfers/redeem', '', { token });
    expect(redeemed.status).toBe(200);
    const newPhone = `fp_fan=${setCookies(redeemed).fp_fan}`;
    expect((await memoryOf(ann, 'miamem', newPhone)).items.map((i) => i.text)).toEqual([
      'Trains for a marathon in June.',
    ]);
    const oldPhone = await call(t, 'GET', `/api/chatlog/fan/${ann.fanId}/memory?creator=miamem`, ann.cookie);
    expect(oldPhone.status).toBe(403);

    // Deleted with the conversation.
    const gone = await call(t, 'DELETE', `/api/chatlog/fan/${ann.fanId}?creator=miamem`, mia.cookie);
    expect(gone.status).toBe(200);
    const left = await t.db.db.selectFrom('fan_memory').select('id').where('fan_id', '=', annRow).execute();
    expect(left).toEqual([]);
  });

  it('forgets on request, keeps nothing when off or malformed, and keeps at most a short sentence', async () => {
    await creator('pimem');
    const fan = new FanBrowser(t);
    await askAndSettle(fan, 'pimem', 'Please call me Jo. My knee hurts, how far should I run?');
    expect((await memoryOf(fan, 'pimem')).items.map((i) => i.text)).toEqual([
      'Has a sore left knee.',
      'Goes by Jo.',
    ]);

    // "Don't remember that": the items of the message before are dropped, and the fan told so.
    const dropped = await forget(fan, 'pimem', "Don't remember that, please.");
    expect(dropped.asked.memory).toBe('dropped');
    expect((await memoryOf(fan, 'pimem')).items).toEqual([]);

    // A malformed extraction keeps nothing (and is logged).
    extract = () => 'Sure! The fan has a knee problem.';
    await askAndSettle(fan, 'pimem', 'My knee hurts again, what now?');
    expect((await memoryOf(fan, 'pimem')).items).toEqual([]);

    // A long fact is cut to a short sentence.
    extract = () => JSON.stringify({ facts: [{ text: `Likes ${'long '.repeat(80)}runs.`, message: 1 }] });
    await askAndSettle(fan, 'pimem', 'I like long runs.');
    const long = (await memoryOf(fan, 'pimem')).items;
    expect(long).toHaveLength(1);
    expect(long[0]!.text.length).toBeLessThanOrEqual(200);

    // "Forget everything": all cleared.
    const cleared = await forget(fan, 'pimem', 'Forget everything about me.');
    expect(cleared.asked.memory).toBe('cleared');
    expect((await memoryOf(fan, 'pimem')).items).toEqual([]);

    // Off: everything deleted and nothing more kept.
    extract = () => JSON.stringify({ facts: [{ text: 'Has a sore left knee.', message: 1 }] });
    await askAndSettle(fan, 'pimem', 'My knee hurts.');
    expect((await memoryOf(fan, 'pimem')).items).toHaveLength(1);
    const off = await call(t, 'PUT', `/api/chatlog/fan/${fan.fanId}/memory?creator=pimem`, fan.cookie, {
      enabled: false,
    });
    expect(await json(off)).toMatchObject({ enabled: false, items: [] });
    openai.requests.length = 0;
    await askAndSettle(fan, 'pimem', 'My knee still hurts.');
    expect(openai.requests.filter(isExtraction)).toHaveLength(0);
    expect((await memoryOf(fan, 'pimem')).items).toEqual([]);
    const bad = await call(t, 'PUT', `/api/chatlog/fan/${fan.fanId}/memory?creator=pimem`, fan.cookie, {
      enabled: 'no',
    });
    expect(bad.status).toBe(400);

    // Embedded defaults (no model key): memory is off.
    expect(memoryAvailable('gpt-4o-mini', {})).toBe(false);
    expect(memoryAvailable('gpt-4o-mini', { OPENAI_API_KEY: 'sk' })).toBe(true);
  });
  it('moves with a restore by email: the new browser sees the memory, the old one no longer', async () => {
    const ivy = await creator('ivymem');
    const laptop = new FanBrowser(t);
    await askAndSettle(laptop, 'ivymem', 'I train for a marathon. What should I eat before a long run?');
    expect((await memoryOf(laptop, 'ivymem')).items.map((i) => i.text)).toEqual([
      'Trains for a marathon in May.',
    ]);
    // The conversation proved its email (a restore link opened before on the laptop), and the fan
    // asks for a link on the phone: what requestRestoreLink stores (tested in fan-plans.test.ts).
    const fanId = await fanRow(laptop, ivy.id);
    await t.db.db
      .updateTable('fans')
      .set({ proved_email: 'ivy-fan@example.com' })
      .where('id', '=', fanId)
      .execute();
    const token = randomBytes(32).toString('base64url');
    await t.db.db
      .insertInto('fan_restore_links')
      .values({
        token_hash: hashToken(token),
        creator_id: ivy.id,
        email: 'ivy-fan@example.com',
        expires_at: new Date(Date.now() + 15 * 60_000),
      })
      .execute();
    const phone = new FanBrowser(t);
    const redeemed = await fetch(`${t.url}/api/fan-subscriptions/restore/redeem`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(redeemed.status).toBe(200);
    expect(await redeemed.json()).toEqual({ fanId: laptop.fanId, creator: 'ivymem' });
    phone.cookie = `fp_fan=${setCookies(redeemed).fp_fan}`;
    const moved = new FanBrowser(t, laptop.fanId);
    moved.cookie = phone.cookie;
    expect((await memoryOf(moved, 'ivymem')).items.map((i) => i.text)).toEqual([
      'Trains for a marathon in May.',
    ]);
    // The laptop lost the conversation, and its memory with it.
    const old = await call(t, 'GET', `/api/chatlog/fan/${laptop.fanId}/memory?creator=ivymem`, laptop.cookie);
    expect(old.status).toBe(403);
    // The next answer on the phone uses it.
    openai.requests.length = 0;
    await askAndSettle(moved, 'ivymem', 'And the day before?');
    expect(system(answerPrompts().at(-1)!)).toContain('Trains for a marathon in May.');
  });
  it("reads the fan's turn after the creator's own reply, through the job the reply's statement wrote", async () => {
    const ola = await creator('olamem');
    const toggled = await call(t, 'POST', '/api/toggle-status', ola.cookie, { creator: 'olamem' });
    expect(await json(toggled)).toMatchObject({ isOnline: true });
    const fan = new FanBrowser(t);
    const asked = await json(await fan.ask('olamem', 'Please call me Sam. Is a long run on Sunday fine?'));
    expect(asked.aiWillAnswer).toBe(false);
    const question = (asked.message as unknown as { id: string }).id;
    await t.background.idle();
    // Nothing read while the question waits for the creator.
    expect(openai.requests.filter(isExtraction)).toHaveLength(0);
    expect((await memoryOf(fan, 'olamem')).items).toEqual([]);

    const answered = await call(t, 'POST', '/api/answer', ola.cookie, {
      creator: 'olamem',
      messageId: question,
      response: 'Yes, Sunday is perfect.',
    });
    expect(answered.status).toBe(200);
    // The reply and its memory job were committed together: no job row is left once the relay ran.
    await t.background.idle();
    expect(openai.requests.filter(isExtraction)).toHaveLength(1);
    const memory = await memoryOf(fan, 'olamem');
    expect(memory.items.map((i) => [i.text, i.sourceMessageId])).toEqual([['Goes by Sam.', question]]);
    const left = await t.db.db
      .selectFrom('job_outbox')
      .select('id')
      .where('name', '=', 'fan-memory')
      .execute();
    expect(left).toEqual([]);
  });
});
