import { texts } from '../texts.ts';
import { ApiError, isNetworkFailure } from './api.ts';

/**
 * What the fan is told when a send made while online fails: the specified text alone ('Message
 * failed to send. Please try again.'), except a widget refused by its site (the api's words); after a 429 the time to wait comes as a separate hint. A
 * failure with no answer at all (the network) is queued in the outbox for a later retry.
 */
export function sendFailure(err: unknown): { error: string; hint: string | null; queue: boolean } {
  // The website widget on a site the creator no longer lists: the api's reason, not a retry that
  // can never work ("This chat is not enabled on … ").
  if (err instanceof ApiError && err.body) {
    switch (err.body.error) {
      case 'site_not_allowed':
        return { error: err.body.message, hint: null, queue: false };
    }
  }
  return {
    error: texts.sendFailed,
    hint: err instanceof ApiError && err.status === 429 ? texts.rateLimited(err.retryAfterSeconds) : null,
    queue: isNetworkFailure(err),
  };
}
