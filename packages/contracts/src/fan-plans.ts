import { z } from 'zod';
import { creatorUsernameFieldSchema, fanIdSchema } from './messages.ts';

// Fans pay their creator (issue 26, record 0043): the creator's plan, payouts through Stripe
// Connect, a fan's free allowance and subscription, earnings.

/** The monthly prices the dashboard offers in one tap (the landing page's $30–$99). */
export const FAN_PLAN_PRESETS_CENTS = [3_000, 4_900, 7_900, 9_900] as const;
/** A monthly price in cents: from $3 to $999. */
export const FAN_PLAN_MONTHLY_MIN_CENTS = 300;
export const FAN_PLAN_MONTHLY_MAX_CENTS = 99_900;
/** A free trial lasts at most this many days. */
export const FAN_PLAN_TRIAL_DAYS_MAX = 30;
/** AI answers per fan per calendar month (UTC) before the paywall, unless the creator says otherwise. */
export const FAN_FREE_ANSWERS_DEFAULT = 5;
export const FAN_FREE_ANSWERS_MAX = 100;
/** The fan app shows the free answers left once this few remain. */
export const FAN_FREE_ANSWERS_SHOWN_BELOW = 3;
/** After a failed renewal the subscriber keeps access this many days while Stripe retries the card. */
export const SUBSCRIPTION_GRACE_DAYS = 7;
/** A restore link works once, for this many minutes. */
export const RESTORE_LINK_MINUTES = 30;
/**
 * Restore links asked for one email per hour, whether or not it subscribes (record 0071): counted in
 * the database, so the cap holds across api processes and rotated addresses.
 */
export const RESTORE_REQUESTS_PER_EMAIL_PER_HOUR = 3;
/** Restore links one address (an IPv6 /64) may ask for per hour, whatever the emails. */
export const RESTORE_REQUESTS_PER_ADDRESS_PER_HOUR = 10;

const cents = (what: string) =>
  z.number({ error: `${what} must be a number of cents` }).int(`${what} must be whole cents`);

export const fanPlanSettingsSchema = z
  .object({
    /** Off: no paywall, fans chat as before (the allowance does not apply). */
    enabled: z.boolean(),
    monthlyCents: cents('The monthly price')
      .min(FAN_PLAN_MONTHLY_MIN_CENTS, 'The monthly price must be at least $3.')
      .max(FAN_PLAN_MONTHLY_MAX_CENTS, 'The monthly price must be at most $999.'),
    /** Optional yearly price: more than one month's, at most twelve months'. */
    yearlyCents: cents('The yearly price').nullable(),
    trialDays: z
      .number()
      .int()
      .min(0, 'A trial cannot be negative.')
      .max(FAN_PLAN_TRIAL_DAYS_MAX, `A trial lasts at most ${FAN_PLAN_TRIAL_DAYS_MAX} days.`),
    freeAnswers: z
      .number()
      .int()
      .min(0, 'Free answers cannot be negative.')
      .max(FAN_FREE_ANSWERS_MAX, `At most ${FAN_FREE_ANSWERS_MAX} free answers a month.`),
    /** What subscribers get, in the creator's words (the plan card shows it). */
    perks: z.string().trim().max(280, 'Keep what subscribers get under 280 characters.'),
    /** Ask a fan for an email before the paywall. */
    leadCapture: z.boolean(),
  })
  .superRefine((plan, ctx) => {
    if (plan.yearlyCents === null) return;
    if (plan.yearlyCents <= plan.monthlyCents || plan.yearlyCents > plan.monthlyCents * 12) {
      ctx.addIssue({
        code: 'custom',
        path: ['yearlyCents'],
        message:
          'The yearly price must be more than one month and at most twelve months of the monthly price.',
      });
    }
  });
export type FanPlanSettings = z.infer<typeof fanPlanSettingsSchema>;

export const payoutStateSchema = z.object({
  connected: z.boolean(),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
  detailsSubmitted: z.boolean(),
  /**
   * The payment provider no longer knows the connected account (keys changed, account deleted):
   * fans cannot subscribe until the creator connects payouts again.
   */
  lost: z.boolean(),
});
export type PayoutState = z.infer<typeof payoutStateSchema>;

/** GET/PUT /api/creators/username/:username/fan-plan */
export const fanPlanResponseSchema = z.object({
  plan: fanPlanSettingsSchema.nullable(),
  payouts: payoutStateSchema,
  /** 'stripe', the local test flow (no STRIPE_SECRET_KEY outside production), or 'off'. */
  paymentsMode: z.enum(['stripe', 'test', 'off']),
  feePercent: z.number(),
  presetsCents: z.array(z.number().int()),
  /** Whether fans can subscribe now (plan on, payments on, charges enabled). */
  live: z.boolean(),
});
export type FanPlanResponse = z.infer<typeof fanPlanResponseSchema>;

export const connectPayoutsResponseSchema = z.object({ url: z.string() });

export const earningsSchema = z.object({
  currency: z.literal('usd'),
  subscribers: z.number().int(),
  /** Monthly recurring revenue in cents (a yearly plan counts a twelfth). */
  mrrCents: z.number().int(),
  /** The platform's fee on that (PLATFORM_FEE_PERCENT). */
  feePercent: z.number(),
  feeCents: z.number().int(),
  newThisMonth: z.number().int(),
  cancelledThisMonth: z.number().int(),
  /** Fans who met the paywall, and those of them who subscribed (the measured conversion). */
  paywallFans: z.number().int(),
  convertedFans: z.number().int(),
  conversionPercent: z.number().nullable(),
  /** Paid invoices this month: gross, fee, and what went back (refunds, disputes). */
  paidThisMonthCents: z.number().int(),
  feeThisMonthCents: z.number().int(),
  payouts: z.array(
    z.object({ id: z.string(), amountCents: z.number().int(), status: z.string(), arrivalDate: z.string() }),
  ),
  /** Why payouts are missing: not connected, or Stripe could not be asked. */
  payoutsNote: z.string().nullable(),
});
export type Earnings = z.infer<typeof earningsSchema>;

const emailSchema = z
  .string({ error: 'Please enter your email.' })
  .trim()
  .min(3, 'Please enter your email.')
  .max(254, 'That email is too long.')
  .email('Please enter a valid email.');

/** What a fan's chat knows of the creator's plan and the fan's place in it. */
export const fanPlanStateSchema = z.object({
  /** The plan card, or null when the creator asks nothing of fans. */
  offer: z
    .object({
      monthlyCents: z.number().int(),
      yearlyCents: z.number().int().nullable(),
      trialDays: z.number().int(),
      perks: z.string(),
      freeAnswers: z.number().int(),
      creatorName: z.string(),
      creatorImage: z.string().nullable(),
      leadCapture: z.boolean(),
    })
    .nullable(),
  /** Free AI answers left this month (null: no limit applies). */
  freeAnswersLeft: z.number().int().nullable(),
  /** Past the allowance without a subscription: the AI does not answer, the card shows. */
  paywall: z.boolean(),
  /** The fan already gave an email (lead capture done). */
  emailGiven: z.boolean(),
  subscription: z
    .object({
      status: z.enum(['active', 'trialing', 'past_due', 'cancelling', 'ended']),
      accessUntil: z.string().nullable(),
      graceUntil: z.string().nullable(),
      email: z.string().nullable(),
    })
    .nullable(),
});
export type FanPlanState = z.infer<typeof fanPlanStateSchema>;

export const fanPlanQuerySchema = z.object({ creator: creatorUsernameFieldSchema });

export const fanSubscribeRequestSchema = z.object({
  creator: creatorUsernameFieldSchema,
  fanId: fanIdSchema,
  interval: z.enum(['month', 'year']).default('month'),
});
export const checkoutUrlResponseSchema = z.object({ url: z.string() });

export const confirmSubscriptionRequestSchema = z.object({
  creator: creatorUsernameFieldSchema,
  fanId: fanIdSchema,
  sessionId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9_]+$/, 'This is not a checkout session.'),
});

export const fanPortalRequestSchema = z.object({ creator: creatorUsernameFieldSchema, fanId: fanIdSchema });

export const requestRestoreLinkSchema = z.object({
  creator: creatorUsernameFieldSchema,
  fanId: fanIdSchema,
  email: emailSchema,
});
export const requestRestoreLinkResponseSchema = z.object({
  /** Always the same words, subscribed or not (the answer never tells who subscribes). */
  message: z.string(),
});

export const redeemRestoreLinkSchema = z.object({
  token: z
    .string({ error: 'The link is incomplete. Open the whole link again.' })
    .trim()
    .min(1, 'The link is incomplete. Open the whole link again.')
    .max(100, 'This is not a restore link.')
    .regex(/^[A-Za-z0-9_-]+$/, 'This is not a restore link.'),
});
export const redeemRestoreLinkResponseSchema = z.object({ fanId: z.string(), creator: z.string() });

export const captureLeadRequestSchema = z.object({
  creator: creatorUsernameFieldSchema,
  fanId: fanIdSchema,
  email: emailSchema,
});
export const okResponseSchema = z.object({ ok: z.literal(true) });

/** The words a fan reads after asking for a restore link. */
export const RESTORE_LINK_SENT_MESSAGE =
  'If that email holds a subscription to this chat, a link to restore it is on its way. It works once, for 30 minutes.';
