import { z } from 'zod';
import { creatorUsernameFieldSchema, fanIdSchema } from './messages.ts';
import { requiredString } from './required.ts';

/** POST /api/fan-transfers: the browser that holds the chat asks for a one-time link. */
export const createFanTransferRequestSchema = z.object({
  creator: creatorUsernameFieldSchema,
  fanId: fanIdSchema,
});
export type CreateFanTransferRequest = z.input<typeof createFanTransferRequestSchema>;
export const createFanTransferResponseSchema = z.object({
  /** Open it in the other browser (or scan it as a QR code). */
  url: z.string(),
  expiresAt: z.string(),
});
export type CreateFanTransferResponse = z.infer<typeof createFanTransferResponseSchema>;

/** POST /api/fan-transfers/redeem: the new browser takes the chat over. */
export const redeemFanTransferRequestSchema = z.object({
  token: requiredString('The transfer link is incomplete. Open the whole link again.')
    .trim()
    .min(1, 'The transfer link is incomplete. Open the whole link again.')
    .max(100, 'This is not a transfer link.')
    .regex(/^[A-Za-z0-9_-]+$/, 'This is not a transfer link.'),
});
export type RedeemFanTransferRequest = z.input<typeof redeemFanTransferRequestSchema>;
export const redeemFanTransferResponseSchema = z.object({
  /** The fan id to keep under `fanchat_fan_id` in this browser. */
  fanId: z.string(),
  /** The username of the creator whose chat the link was made from. */
  creator: z.string(),
});
export type RedeemFanTransferResponse = z.infer<typeof redeemFanTransferResponseSchema>;
