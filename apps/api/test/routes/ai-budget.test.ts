import { ANSWER_QUEUE } from '@fanpilot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, FanBrowser, json, onboard, sent, startTestApp, type TestApp } from '../helpers.ts';

/** Made-up fans, each asking once, as in the drain (1,290 fans against 1,000 credits). */
const STRANGERS = 1290;
const BUDGET = 25;
/** Asks in flight at once. */
const PARALLEL = 16;

describe("a creator's daily AI answer budget", () => {
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    // No model key: the AI answers with the creator's own material (or a polite fallback), charged
    // like any AI answer, which is all this test needs.
    t = await startTestApp({ env: { ASK_RATE_LIMIT_PER_IP: '100000' } });
    cookie = await onboard(t, 'gina');
  });
  afterAll(async () => {
    await t?.close();
  });

  const usage = async () => json(await call(t, 'GET', '/api/creators/username/gina/usage', cookie));
  const setBudget = async (dailyAiBudget: number) => {
    const bot = await json(await call(t, 'GET', '/api/creators/username/gina/chatbot', cookie));
    const res = await call(t, 'PUT', `/api/chatbots/${bot.id}/settings`, cookie, {
      name: bot.name,
      instructions: bot.instructions,
      model: bot.model,
      temp: String(bot.temp),
      dailyAiBudget,
    });
    expect(res.status).toBe(200);
    expect((await json(res)).dailyAiBudget).toBe(dailyAiBudget);
  };
  const settled = async (answers: number) =>
    eventually(async () => {
      const u = await usage();
      return u.aiAnswersToday === answers && (await t.jobs.pending(ANSWER_QUEUE)) === 0 ? u : null;
    }, 60_000);

  it(`${STRANGERS} made-up fans spend today's budget and no more; the rest wait for the creator, who is told`, async () => {
    expect(await usage()).toMatchObject({ aiAnswersToday: 0, dailyAiBudget: 300, aiBudgetReached: false });
    await setBudget(BUDGET);

    let willAnswer = 0;
    let next = 0;
    const ask = async () => {
      while (next < STRANGERS) {
        const i = next++;
        const res = await new FanBrowser(t).ask('gina', `Question ${i} from a stranger`);
        expect(res.status).toBe(200);
        if ((await sent(res)).aiWillAnswer) willAnswer++;
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, ask));

    const u = await settled(BUDGET);
    expect(u).toMatchObject({
      creditsRemaining: 1000 - BUDGET,
      creditsUsed: BUDGET,
      aiAnswersToday: BUDGET,
      dailyAiBudget: BUDGET,
      aiBudgetReached: true,
    });
    // The ask said so: past the budget (the questions already waiting counted against it), fans
    // were told the AI would not answer; only asks racing each other may both hear yes.
    expect(willAnswer).toBeGreaterThanOrEqual(BUDGET);
    expect(willAnswer).toBeLessThanOrEqual(BUDGET + PARALLEL);
    const pending = await t.db.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'pending')
      .where('sender', '=', 'fan')
      // Gina has no material: the AI's answers said so and handed those questions over (they wait
      // for her too, but not for the AI).
      .where('ai_handed_over_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(pending.n)).toBe(STRANGERS - BUDGET);

    const late = new FanBrowser(t);
    const asked = await sent(await late.ask('gina', 'Anyone there?'));
    expect(asked.aiWillAnswer).toBe(false);
    expect(asked.message.status).toBe('pending');
    console.log(
      `[ai budget] ${STRANGERS} made-up fans asked; ${willAnswer} were told the AI would answer; ` +
        `${u.aiAnswersToday} AI answers charged (budget ${BUDGET}), credits left ${u.creditsRemaining} of 1000`,
    );

    // The creator raises the budget: the waiting questions go to the AI, up to the new budget.
    await setBudget(BUDGET + 5);
    expect(await settled(BUDGET + 5)).toMatchObject({
      aiAnswersToday: BUDGET + 5,
      creditsRemaining: 1000 - BUDGET - 5,
      aiBudgetReached: true,
    });
  }, 180_000);
});
