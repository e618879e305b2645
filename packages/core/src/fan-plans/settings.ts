import { type FanPlanSettings, fanPlanSettingsSchema, type PayoutState } from '@fanpilot/contracts';
import type { Db } from '../db.ts';
import { DomainError } from '../errors.ts';

// The creator's side of fans paying: the plan, and the Stripe Connect account payouts go to.

/** The creator's plan, or null before they set one. */
export async function fanPlanOf(db: Db, creatorId: string): Promise<FanPlanSettings | null> {
  const row = await db
    .selectFrom('fan_plans')
    .selectAll()
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    enabled: row.enabled,
    monthlyCents: row.monthly_cents,
    yearlyCents: row.yearly_cents,
    trialDays: row.trial_days,
    freeAnswers: row.free_answers,
    perks: row.perks,
    leadCapture: row.lead_capture,
  };
}

/**
 * Saves the creator's plan. The bounds (a monthly price from $3 to $999, a yearly price between one
 * and twelve months', a trial of at most 30 days, at most 100 free answers) are the contract's, and
 * checked here too, so no caller stores a plan outside them.
 */
export async function saveFanPlan(
  db: Db,
  creatorId: string,
  input: FanPlanSettings,
): Promise<FanPlanSettings> {
  const parsed = fanPlanSettingsSchema.safeParse(input);
  if (!parsed.success) {
    throw new DomainError(
      'invalid',
      'invalid_plan',
      parsed.error.issues[0]?.message ?? 'This plan is not valid.',
    );
  }
  const plan = parsed.data;
  const values = {
    enabled: plan.enabled,
    monthly_cents: plan.monthlyCents,
    yearly_cents: plan.yearlyCents,
    trial_days: plan.trialDays,
    free_answers: plan.freeAnswers,
    perks: plan.perks,
    lead_capture: plan.leadCapture,
    updated_at: new Date(),
  };
  await db
    .insertInto('fan_plans')
    .values({ creator_id: creatorId, ...values })
    .onConflict((oc) => oc.column('creator_id').doUpdateSet(values))
    .execute();
  return plan;
}

/** The creator's connected account as Stripe last described it. */
export async function payoutAccountOf(db: Db, creatorId: string) {
  return db
    .selectFrom('creator_payout_accounts')
    .selectAll()
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
}

export async function payoutStateOf(db: Db, creatorId: string): Promise<PayoutState> {
  const row = await payoutAccountOf(db, creatorId);
  return {
    connected: Boolean(row),
    chargesEnabled: row?.charges_enabled ?? false,
    payoutsEnabled: row?.payouts_enabled ?? false,
    detailsSubmitted: row?.details_submitted ?? false,
    lost: Boolean(row?.lost_at),
  };
}

/**
 * The payment provider answered that it does not know the creator's connected account: it is
 * marked lost (no charges, no payouts) until the creator connects payouts again. Returns the
 * refusal the asking side is shown (the fan subscribing or managing a subscription).
 */
export async function notePayoutAccountLost(
  db: Db,
  creatorId: string,
  accountId: string,
  side: { creatorName: string; action: 'subscribe' | 'manage' },
  now: Date = new Date(),
): Promise<DomainError> {
  await db
    .updateTable('creator_payout_accounts')
    .set({ lost_at: now, charges_enabled: false, payouts_enabled: false, updated_at: now })
    .where('creator_id', '=', creatorId)
    .where('account_id', '=', accountId)
    .where('lost_at', 'is', null)
    .execute();
  return payoutsNeedReconnecting(side);
}

/** What a fan reads while the creator's payout account is lost. */
export function payoutsNeedReconnecting(side: {
  creatorName: string;
  action: 'subscribe' | 'manage';
}): DomainError {
  return new DomainError(
    'conflict',
    'payouts_need_reconnecting',
    side.action === 'subscribe'
      ? `${side.creatorName} cannot take subscriptions right now: their payment account needs to be reconnected. You can keep chatting; please try again later.`
      : `Your subscription settings cannot be opened right now: ${side.creatorName}'s payment account needs to be reconnected. Your access is unchanged; please try again later.`,
  );
}

/**
 * The payment provider does not know the customer of the fan's subscription (its record was
 * removed there): say so, and what the fan can do.
 */
export function subscriptionUnknownToProvider(creatorName: string): DomainError {
  return new DomainError(
    'conflict',
    'subscription_unknown',
    `The payment provider no longer has a record of your subscription to ${creatorName}, so its settings cannot be opened. Your access here is unchanged; ${creatorName} can check it in their payout account.`,
  );
}

/** A new connected account replaces a lost one (the creator reconnected payouts). */
export async function replaceLostPayoutAccount(db: Db, creatorId: string, accountId: string): Promise<void> {
  await db
    .updateTable('creator_payout_accounts')
    .set({
      account_id: accountId,
      lost_at: null,
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      updated_at: new Date(),
    })
    .where('creator_id', '=', creatorId)
    .where('lost_at', 'is not', null)
    .execute();
}

/** Remembers the connected account made for the creator (one per creator; the first one stays). */
export async function recordPayoutAccount(db: Db, creatorId: string, accountId: string): Promise<string> {
  await db
    .insertInto('creator_payout_accounts')
    .values({ creator_id: creatorId, account_id: accountId })
    .onConflict((oc) => oc.column('creator_id').doNothing())
    .execute();
  const row = await payoutAccountOf(db, creatorId);
  return row!.account_id;
}

/** Whether fans can subscribe to the creator now: a plan switched on and an account taking charges. */
export async function planIsLive(db: Db, creatorId: string): Promise<boolean> {
  const [plan, payouts] = await Promise.all([fanPlanOf(db, creatorId), payoutStateOf(db, creatorId)]);
  return Boolean(plan?.enabled && payouts.chargesEnabled);
}
