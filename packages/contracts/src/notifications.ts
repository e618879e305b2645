import { z } from 'zod';
import { pushSubscriptionSchema } from './push.ts';

// What a creator hears about while away, and how (record 0061).

/** The kinds of alert, in the order the settings page lists them. */
export const ALERT_KINDS = [
  'question',
  'waiting',
  'budget_reached',
  'credits_low',
  'credits_out',
  'source_failed',
  'new_subscriber',
  'subscription_cancelled',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** How each kind is named on the settings page and in an alert email. */
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  question: 'A question handed to you',
  waiting: 'A question waiting longer than your waiting time',
  budget_reached: "Today's AI budget reached",
  credits_low: 'Credits running low',
  credits_out: 'Credits used up',
  source_failed: 'A knowledge source failed',
  new_subscriber: 'A new subscriber',
  subscription_cancelled: 'A cancelled subscription',
};

export const ALERT_CHANNELS = ['email', 'push'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

const channelSchema = z.object({ email: z.boolean(), push: z.boolean() });

/** "HH:MM", 24-hour. */
const clockSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Expected a time as HH:MM.');

export const notificationSettingsSchema = z.object({
  /** Each kind on or off per channel. */
  kinds: z.object(
    Object.fromEntries(ALERT_KINDS.map((k) => [k, channelSchema])) as Record<AlertKind, typeof channelSchema>,
  ),
  /** A question waiting this long (minutes) is an alert of its own. */
  waitMinutes: z.number().int().min(5).max(10_080),
  /** Alerts are held from `start` to `end` (local time) and sent after; null: no quiet hours. */
  quietHours: z.object({ start: clockSchema, end: clockSchema }).nullable(),
  /** An IANA time zone ("Europe/Paris"). */
  timeZone: z.string().min(1).max(64),
  digest: z.enum(['daily', 'weekly', 'off']),
  /** The local hour the digest is sent at (the creator's morning). */
  digestHour: z.number().int().min(0).max(23),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const notificationSettingsResponseSchema = notificationSettingsSchema.extend({
  /** The address alerts go to (the creator's sign-in email). */
  email: z.string(),
  /** The address was refused by the mail server for good: alerts by email wait until it is fixed. */
  bounce: z.object({ at: z.string(), reason: z.string() }).nullable(),
  /** Browsers that receive alert pushes. */
  pushDevices: z.number().int(),
});
export type NotificationSettingsResponse = z.infer<typeof notificationSettingsResponseSchema>;

export const creatorPushSubscribeRequestSchema = z.object({ subscription: pushSubscriptionSchema });
export const creatorPushUnsubscribeRequestSchema = z.object({ endpoint: z.string().min(1).max(2048) });
export const creatorPushResponseSchema = z.object({
  success: z.literal(true),
  pushDevices: z.number().int(),
});

export const unsubscribeQuerySchema = z.object({ token: z.string().min(10).max(400) });
export const unsubscribeResponseSchema = z.object({
  success: z.literal(true),
  /** What stopped: every alert email, or the digest. */
  stopped: z.enum(['alerts', 'digest']),
});
