import { texts } from '../texts.ts';
import { ApiError, isNetworkFailure } from './api.ts';

/**
 * What the fan is told when a send made while online fails: always the specified text alone ('Message
 * failed to send. Please try again.'); after a 429 the time to wait comes as a separate hint. A
 * failure with no answer at all (the network) is queued in the outbox for a later retry.
 */
export function sendFailure(err: unknown): { error: string; hint: string | null; queue: boolean } {
  return {
    error: texts.sendFailed,
    hint: err instanceof ApiError && err.status === 429 ? texts.rateLimited(err.retryAfterSeconds) : null,
    queue: isNetworkFailure(err),
  };
}
