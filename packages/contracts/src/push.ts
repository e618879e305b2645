import { z } from 'zod';

/** Base64url without padding, as PushSubscription.toJSON() gives the keys. */
const base64url = (min: number, max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'Expected base64url.')
    .min(min)
    .max(max);

/** A browser's PushSubscription, as `subscription.toJSON()` gives it. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string().min(1).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes → 87 characters). */
    p256dh: base64url(80, 100),
    /** The 16-byte authentication secret (22 characters). */
    auth: base64url(16, 32),
  }),
});

export const subscribePushRequestSchema = z.object({
  creator: z.string().min(1).max(100),
  fanId: z.string().min(1).max(200),
  subscription: pushSubscriptionSchema,
  /** Show a short preview of the message in the notification (default true). */
  preview: z.boolean().optional(),
});
export type SubscribePushRequest = z.infer<typeof subscribePushRequestSchema>;

export const unsubscribePushRequestSchema = z.object({
  endpoint: z.string().min(1).max(2048),
  /** Only this creator's chat stops notifying this device; without it, every chat does. */
  creator: z.string().min(1).max(100).optional(),
});
export type UnsubscribePushRequest = z.infer<typeof unsubscribePushRequestSchema>;

export const pushKeyResponseSchema = z.object({
  /** The VAPID public key, base64url: the applicationServerKey of pushManager.subscribe(). */
  publicKey: z.string(),
});

/** What a push carries (encrypted to the device): what the notification shows, where a tap goes. */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** The chat to open, at the new message. */
  url: z.string(),
  /** Notifications with one tag replace each other (one per creator's chat). */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/** The largest payload sent: well under the 4 KB push services take. */
export const PUSH_PAYLOAD_MAX_BYTES = 3000;
/** How much of a message a notification previews. */
export const PUSH_PREVIEW_CHARS = 120;
