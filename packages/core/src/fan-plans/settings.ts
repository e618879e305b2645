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
  };
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
