import { randomUUID } from 'node:crypto';
import { CREDIT_PACKS, FREE_CREDITS, LOW_CREDITS_THRESHOLD } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attachCheckoutSession,
  billingOf,
  buyCreditPack,
  type CreditCheckout,
  checkoutPack,
  completePaidCheckout,
  completePurchase,
  createPurchase,
  discardPurchase,
  ownPurchase,
} from './billing.ts';
import { adjustCredits } from './credits.ts';
import { DomainError } from './errors.ts';

// Buying credits, in core where its rules are: which pack may be bought, whose purchase it is,
// and that a purchase's credits reach the ledger once, however often its payment is reported.

function refusal(call: () => unknown): DomainError;
function refusal(call: Promise<unknown>): Promise<DomainError>;
function refusal(call: Promise<unknown> | (() => unknown)): DomainError | Promise<DomainError> {
  const check = (err: unknown) => {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  };
  if (typeof call === 'function') {
    try {
      call();
    } catch (err) {
      return check(err);
    }
    return check(undefined);
  }
  return call.then(
    () => check(undefined),
    (err: unknown) => check(err),
  );
}

const MODE = { purchasesEnabled: true, testMode: true };
const PACK = CREDIT_PACKS[0]!;

describe('billing (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  it('a pack is one of the packs, and only while buying is switched on', () => {
    expect(checkoutPack(PACK.id, true)).toEqual(PACK);
    const unknown = refusal(() => checkoutPack('pack_999', true));
    expect([unknown.reason, unknown.code]).toEqual(['invalid', 'unknown_pack']);
    const off = refusal(() => checkoutPack(PACK.id, false));
    expect([off.reason, off.code]).toEqual(['conflict', 'billing_disabled']);
  });

  it('a paid purchase adds its credits once, however often it is completed', async () => {
    const { creatorId } = await seedCreator(db(), { credits: FREE_CREDITS });
    const before = await billingOf(db(), creatorId, MODE);
    expect(before).toMatchObject({ balance: FREE_CREDITS, purchased: 0, freeGrant: FREE_CREDITS });
    const purchaseId = await createPurchase(db(), creatorId, PACK, 'test');
    expect((await billingOf(db(), creatorId, MODE)).purchases).toMatchObject([
      { id: purchaseId, status: 'pending', credits: PACK.credits, paidAt: null },
    ]);
    expect(await completePurchase(db(), purchaseId, { receiptUrl: 'https://receipt.example/1' })).toBe(true);
    expect(await completePurchase(db(), purchaseId)).toBe(false);
    const after = await billingOf(db(), creatorId, MODE);
    expect(after).toMatchObject({ balance: FREE_CREDITS + PACK.credits, purchased: PACK.credits });
    expect(after.purchases).toMatchObject([
      { id: purchaseId, status: 'paid', receiptUrl: 'https://receipt.example/1' },
    ]);
  });

  it('a checkout event delivered twice adds the credits once; a session that is not the purchase’s adds none', async () => {
    const { creatorId } = await seedCreator(db(), { credits: FREE_CREDITS });
    const purchaseId = await createPurchase(db(), creatorId, PACK, 'stripe');
    await attachCheckoutSession(db(), purchaseId, 'cs_right');
    const event = { id: `evt_${randomUUID()}`, type: 'checkout.session.completed' };
    // Another session's report (a forged or stale event) completes nothing.
    expect(await completePaidCheckout(db(), event, purchaseId, { sessionId: 'cs_wrong' })).toBe(false);
    const paid = { id: `evt_${randomUUID()}`, type: 'checkout.session.completed' };
    expect(await completePaidCheckout(db(), paid, purchaseId, { sessionId: 'cs_right' })).toBe(true);
    expect(await completePaidCheckout(db(), paid, purchaseId, { sessionId: 'cs_right' })).toBe(false);
    expect((await billingOf(db(), creatorId, MODE)).balance).toBe(FREE_CREDITS + PACK.credits);
  });

  it('a discarded purchase is gone; a paid one is never discarded', async () => {
    const { creatorId } = await seedCreator(db());
    const abandoned = await createPurchase(db(), creatorId, PACK, 'test');
    await discardPurchase(db(), abandoned);
    expect((await refusal(ownPurchase(db(), creatorId, abandoned))).reason).toBe('not_found');
    const paid = await createPurchase(db(), creatorId, PACK, 'test');
    await completePurchase(db(), paid);
    await discardPurchase(db(), paid);
    expect((await ownPurchase(db(), creatorId, paid)).status).toBe('paid');
  });

  it('another creator’s purchase is refused (forbidden); a made-up id is not found', async () => {
    const owner = await seedCreator(db());
    const other = await seedCreator(db());
    const purchaseId = await createPurchase(db(), owner.creatorId, PACK, 'test');
    expect((await ownPurchase(db(), owner.creatorId, purchaseId)).creator_id).toBe(owner.creatorId);
    const err = await refusal(ownPurchase(db(), other.creatorId, purchaseId));
    expect([err.reason, err.code]).toEqual(['forbidden', 'forbidden']);
    expect((await refusal(ownPurchase(db(), owner.creatorId, randomUUID()))).reason).toBe('not_found');
    expect((await refusal(ownPurchase(db(), owner.creatorId, 'nope'))).reason).toBe('not_found');
    // And the other creator's billing does not list it.
    expect((await billingOf(db(), other.creatorId, MODE)).purchases).toEqual([]);
  });

  it('the balance’s state: ok, low below the threshold, out at zero', async () => {
    const { creatorId } = await seedCreator(db(), { credits: LOW_CREDITS_THRESHOLD });
    expect((await billingOf(db(), creatorId, MODE)).state).toBe('ok');
    await adjustCredits(db(), creatorId, -1);
    expect((await billingOf(db(), creatorId, MODE)).state).toBe('low');
    await adjustCredits(db(), creatorId, -(LOW_CREDITS_THRESHOLD - 1));
    expect((await billingOf(db(), creatorId, MODE)).state).toBe('out');
  });

  describe('buyCreditPack (ports, requester, input)', () => {
    const ORIGIN = 'https://fanpilot.example';
    /** A provider that opens the checkout it is asked for (or fails as told), and keeps what it was asked. */
    const provider = (answer: 'page' | 'no page' | 'down') => {
      const asked: Parameters<CreditCheckout['start']>[0][] = [];
      const checkout: CreditCheckout = {
        async start(input) {
          asked.push(input);
          if (answer === 'down') throw new Error('provider down');
          return {
            sessionId: `cs_${input.purchaseId}`,
            url: answer === 'page' ? `https://pay.example/${input.purchaseId}` : null,
          };
        },
        noPage: () => new Error('no page'),
      };
      return { checkout, asked };
    };

    it("without a provider: the local test checkout, for the requester's own purchase", async () => {
      const { creatorId } = await seedCreator(db());
      const started = await buyCreditPack(
        { db: db(), checkout: null, purchasesEnabled: true },
        { creatorId },
        {
          pack: PACK.id,
          publicOrigin: ORIGIN,
        },
      );
      expect(started.url).toBe(`/billing/test-checkout/${started.purchaseId}`);
      const row = await ownPurchase(db(), creatorId, started.purchaseId);
      expect([row.provider, row.credits, row.status]).toEqual(['test', PACK.credits, 'pending']);
    });

    it('refuses an unknown pack and buying switched off, recording no purchase', async () => {
      const { creatorId } = await seedCreator(db());
      const off = { db: db(), checkout: null, purchasesEnabled: false };
      expect(
        (await refusal(buyCreditPack(off, { creatorId }, { pack: PACK.id, publicOrigin: ORIGIN }))).code,
      ).toBe('billing_disabled');
      const on = { ...off, purchasesEnabled: true };
      expect(
        (await refusal(buyCreditPack(on, { creatorId }, { pack: 'nope', publicOrigin: ORIGIN }))).code,
      ).toBe('unknown_pack');
      expect((await billingOf(db(), creatorId, MODE)).purchases).toEqual([]);
    });

    it("opens the provider's checkout with the creator's email and dashboard, and keeps its session", async () => {
      const { creatorId } = await seedCreator(db());
      const { checkout, asked } = provider('page');
      const started = await buyCreditPack(
        { db: db(), checkout, purchasesEnabled: true },
        { creatorId },
        {
          pack: PACK.id,
          publicOrigin: ORIGIN,
        },
      );
      expect(started.url).toBe(`https://pay.example/${started.purchaseId}`);
      const row = await ownPurchase(db(), creatorId, started.purchaseId);
      expect([row.provider, row.checkout_session_id]).toEqual(['stripe', `cs_${started.purchaseId}`]);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ purchaseId: started.purchaseId, creatorId, pack: PACK });
      expect(asked[0]!.email).toMatch(/@example\.com$/);
      expect(asked[0]!.successUrl).toMatch(new RegExp(`^${ORIGIN}/dashboard/c-[\\w-]+\\?billing=paid$`));
      expect(asked[0]!.cancelUrl).toMatch(/\?billing=cancelled$/);
    });

    it('a checkout the provider did not open leaves no purchase; one with no page keeps its session', async () => {
      const { creatorId } = await seedCreator(db());
      const down = provider('down');
      await expect(
        buyCreditPack(
          { db: db(), checkout: down.checkout, purchasesEnabled: true },
          { creatorId },
          {
            pack: PACK.id,
            publicOrigin: ORIGIN,
          },
        ),
      ).rejects.toThrow('provider down');
      expect((await billingOf(db(), creatorId, MODE)).purchases).toEqual([]);
      const blank = provider('no page');
      await expect(
        buyCreditPack(
          { db: db(), checkout: blank.checkout, purchasesEnabled: true },
          { creatorId },
          {
            pack: PACK.id,
            publicOrigin: ORIGIN,
          },
        ),
      ).rejects.toThrow('no page');
      const purchaseId = blank.asked[0]!.purchaseId;
      expect((await ownPurchase(db(), creatorId, purchaseId)).checkout_session_id).toBe(`cs_${purchaseId}`);
    });
  });
});
