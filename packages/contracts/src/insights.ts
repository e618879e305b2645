import { z } from 'zod';

/** Insights' periods, in days. */
export const INSIGHT_PERIOD_DAYS = [7, 30, 90] as const;
export type InsightPeriodDays = (typeof INSIGHT_PERIOD_DAYS)[number];

export const insightsQuerySchema = z.object({
  period: z
    .enum(['7', '30', '90'], { message: 'The period is 7, 30 or 90 days.' })
    .default('30')
    .transform((p) => Number(p) as InsightPeriodDays),
});

export const insightTopicSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Who named the group: the configured model, or its key words. */
  namedBy: z.enum(['model', 'keywords']),
  questions: z.number().int(),
  /** Questions in the period before (same length): the trend. */
  previous: z.number().int(),
  answeredByAi: z.number().int(),
  handedOver: z.number().int(),
  ratingsUp: z.number().int(),
  ratingsDown: z.number().int(),
  examples: z.array(
    z.object({ id: z.string(), question: z.string(), fanId: z.string().nullable(), askedAt: z.string() }),
  ),
});
export type InsightTopic = z.infer<typeof insightTopicSchema>;

export const insightGapSchema = z.object({
  question: z.string(),
  topic: z.string().nullable(),
  questions: z.number().int(),
  fans: z.number().int(),
  lastAskedAt: z.string(),
  /** What "Answer it" closes (the knowledge-gaps calls). */
  questionIds: z.array(z.string()),
});
export type InsightGap = z.infer<typeof insightGapSchema>;

export const insightFunnelRowSchema = z.object({
  start: z.string(),
  opened: z.number().int(),
  asked: z.number().int(),
  metPaywall: z.number().int(),
  subscribed: z.number().int(),
  earningsCents: z.number().int(),
});
export type InsightFunnelRow = z.infer<typeof insightFunnelRowSchema>;

export const insightQualityRowSchema = z.object({
  start: z.string(),
  questions: z.number().int(),
  answeredByAi: z.number().int(),
  handedOver: z.number().int(),
  ratingsUp: z.number().int(),
  ratingsDown: z.number().int(),
  medianFirstAnswerSeconds: z.number().int().nullable(),
});
export type InsightQualityRow = z.infer<typeof insightQualityRowSchema>;

export const insightsSchema = z.object({
  period: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** The funnel's and quality's rows are days (7 days) or weeks starting Monday (30, 90). */
  bucket: z.enum(['day', 'week']),
  /** Fan questions not grouped into topics yet (grouping runs in the background). */
  ungrouped: z.number().int(),
  topics: z.array(insightTopicSchema),
  gaps: z.array(insightGapSchema),
  funnel: z.array(insightFunnelRowSchema),
  quality: z.array(insightQualityRowSchema),
});
export type Insights = z.infer<typeof insightsSchema>;

export const INSIGHT_TABLES = ['topics', 'gaps', 'funnel', 'quality'] as const;
export const insightsCsvParamsSchema = z.object({
  username: z.string().min(1).max(100),
  table: z.enum(INSIGHT_TABLES, { message: 'The table is topics, gaps, funnel or quality.' }),
});
