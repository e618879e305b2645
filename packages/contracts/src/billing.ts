import { z } from 'zod';

/** Credit packs at the specified price ($1 per 10,000 credits). */
export const CREDIT_PACKS = [
  { id: 'credits-10k', credits: 10_000, amountCents: 100 },
  { id: 'credits-50k', credits: 50_000, amountCents: 500 },
  { id: 'credits-200k', credits: 200_000, amountCents: 2_000 },
] as const;
export type CreditPackId = (typeof CREDIT_PACKS)[number]['id'];

/** Below this many credits the dashboard warns that the AI will pause soon. */
export const LOW_CREDITS_THRESHOLD = 100;

export const creditPackSchema = z.object({
  id: z.string(),
  credits: z.number().int(),
  amountCents: z.number().int(),
  currency: z.literal('usd'),
});

export const purchaseSchema = z.object({
  id: z.string(),
  pack: z.string(),
  credits: z.number().int(),
  amountCents: z.number().int(),
  currency: z.string(),
  status: z.enum(['pending', 'paid']),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  /** The payment provider's receipt, when it gave one. */
  receiptUrl: z.string().nullable(),
});

export const billingSchema = z.object({
  /** Credits left (the ledger's sum): free grant + purchases − AI answers. */
  balance: z.number().int(),
  freeGrant: z.number().int(),
  purchased: z.number().int(),
  spent: z.number().int(),
  /** 'out' at 0 (the AI is paused), 'low' below LOW_CREDITS_THRESHOLD. */
  state: z.enum(['ok', 'low', 'out']),
  lowThreshold: z.number().int(),
  aiAnswersToday: z.number().int(),
  dailyAiBudget: z.number().int(),
  aiBudgetReached: z.boolean(),
  /** AI answers per UTC day, the last 30 days, oldest first. */
  daily: z.array(z.object({ date: z.string(), aiAnswers: z.number().int() })),
  purchases: z.array(purchaseSchema),
  packs: z.array(creditPackSchema),
  /** No payment provider is configured: checkout is a local test that grants credits. */
  testMode: z.boolean(),
  /**
   * Whether credits can be bought here at all: false in production without a payment provider
   * (checkout answers 409 billing_disabled).
   */
  purchasesEnabled: z.boolean(),
});
export type Billing = z.infer<typeof billingSchema>;

export const checkoutRequestSchema = z.object({
  pack: z.string().min(1, 'Choose a credit pack.').max(50),
});
export const checkoutResponseSchema = z.object({ url: z.string(), purchaseId: z.string() });
