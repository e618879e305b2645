import { z } from 'zod';

/** Every 4xx/5xx body the api sends. */
export const errorBodySchema = z.object({ error: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Sign-in redirect codes: /?error=<code> (docs/product.md#signing-in). */
export const LOGIN_ERROR_CODES = [
  'google_oauth_error',
  'oauth_callback_failed',
  'no_user_returned',
  'login_failed',
] as const;
export type LoginErrorCode = (typeof LOGIN_ERROR_CODES)[number];
