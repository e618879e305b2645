import { randomBytes } from 'node:crypto';
import type { FanPlanSettings } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creatorsRepository } from '../creators.ts';
import { DomainError } from '../errors.ts';
import { fansRepository } from '../fans.ts';
import { leadsCsv } from './fan-state.ts';
import { recordPayoutAccount } from './settings.ts';
import { applyStripeFact } from './stripe-facts.ts';
import { captureFanLead, readFanPlanSettings, readFanPlanState, updateFanPlanSettings } from './use-cases.ts';

const PLAN: FanPlanSettings = {
  enabled: true,
  monthlyCents: 4_900,
  yearlyCents: 49_000,
  trialDays: 0,
  freeAnswers: 3,
  perks: 'Unlimited answers',
  leadCapture: true,
};

describe('fan-plan use cases (ports, requester, input)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 4));
  });
  afterAll(async () => {
    await close?.();
  });
  const ports = () => ({ db: handle.db, imageUrl: (key: string | null) => (key ? `/objects/${key}` : null) });

  /** A creator whose plan is live, their username, and a fan bound to a known browser. */
  const liveCreator = async () => {
    const { creatorId } = await seedCreator(handle.db);
    await updateFanPlanSettings(ports(), { creatorId }, PLAN);
    const account = `acct_${creatorId.slice(0, 8)}`;
    await recordPayoutAccount(handle.db, creatorId, account);
    await applyStripeFact(
      handle.db,
      { id: `evt_${randomBytes(6).toString('hex')}`, type: 'account.updated', created: 1 },
      {
        kind: 'account',
        accountId: account,
        chargesEnabled: true,
        payoutsEnabled: true,
        detailsSubmitted: true,
      },
    );
    const creator = await creatorsRepository(handle.db).findById(creatorId);
    const cookieHash = randomBytes(32).toString('hex');
    const fanKey = `web_${cookieHash.slice(0, 24)}`;
    await fansRepository(handle.db).insertOrGet({ creatorId, fanKey, name: 'Finn', cookieHash });
    return { creatorId, username: creator!.username, fanKey, fanBrowser: { cookieHash, creatorId: null } };
  };

  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a refusal');
      },
      (err: unknown) => {
        expect(err).toBeInstanceOf(DomainError);
        return (err as DomainError).code;
      },
    );

  it("reads and saves only the requester's own plan", async () => {
    const { creatorId } = await seedCreator(handle.db);
    const other = await seedCreator(handle.db);
    expect(await readFanPlanSettings(ports(), { creatorId })).toMatchObject({ plan: null, live: false });
    const card = await updateFanPlanSettings(ports(), { creatorId }, PLAN);
    expect(card.plan).toEqual(PLAN);
    expect(card.payouts.connected).toBe(false);
    expect(card.live).toBe(false); // enabled, but no account taking charges yet
    expect((await readFanPlanSettings(ports(), other)).plan).toBeNull();
  });

  it('refuses a plan outside the bounds, as core', async () => {
    const { creatorId } = await seedCreator(handle.db);
    expect(await refusal(updateFanPlanSettings(ports(), { creatorId }, { ...PLAN, monthlyCents: 299 }))).toBe(
      'invalid_plan',
    );
    expect((await readFanPlanSettings(ports(), { creatorId })).plan).toBeNull();
  });

  it("a live plan: its card, and the fan app's state for a new and a known fan", async () => {
    const c = await liveCreator();
    expect(await readFanPlanSettings(ports(), { creatorId: c.creatorId })).toMatchObject({
      plan: PLAN,
      live: true,
      payouts: { connected: true },
    });
    const stranger = { cookieHash: randomBytes(32).toString('hex'), creatorId: null };
    const fresh = await readFanPlanState(ports(), stranger, {
      creator: c.username,
      fanKey: 'web_nobody_yet',
    });
    expect(fresh.offer).toMatchObject({ monthlyCents: 4_900, freeAnswers: 3, creatorName: 'Bea Baker' });
    expect(fresh).toMatchObject({
      freeAnswersLeft: 3,
      paywall: false,
      subscription: null,
      emailGiven: false,
    });
    const own = await readFanPlanState(ports(), c.fanBrowser, { creator: c.username, fanKey: c.fanKey });
    expect(own.offer?.monthlyCents).toBe(4_900);
  });

  it("refuses an unknown creator and another browser's conversation", async () => {
    const c = await liveCreator();
    expect(
      await refusal(readFanPlanState(ports(), c.fanBrowser, { creator: 'nobody-here', fanKey: c.fanKey })),
    ).toBe('not_found');
    const stranger = { cookieHash: randomBytes(32).toString('hex'), creatorId: null };
    const code = await refusal(
      readFanPlanState(ports(), stranger, { creator: c.username, fanKey: c.fanKey }),
    );
    expect(code).not.toBe('not_found');
  });

  it("captures a lead for the fan's own conversation only", async () => {
    const c = await liveCreator();
    const stranger = { cookieHash: randomBytes(32).toString('hex'), creatorId: null };
    await refusal(
      captureFanLead(ports(), stranger, { creator: c.username, fanKey: c.fanKey, email: 'x@example.com' }),
    );
    expect(
      await refusal(
        captureFanLead(ports(), c.fanBrowser, {
          creator: c.username,
          fanKey: 'web_nobody_yet',
          email: 'y@example.com',
        }),
      ),
    ).toBe('not_found');
    expect(await leadsCsv(handle.db, c.creatorId)).not.toContain('@example.com');
    await captureFanLead(ports(), c.fanBrowser, {
      creator: c.username,
      fanKey: c.fanKey,
      email: 'finn@example.com',
    });
    const csv = await leadsCsv(handle.db, c.creatorId);
    expect(csv).toContain('finn@example.com');
    expect(csv).not.toContain('x@example.com');
  });
});
