import { describe, expect, it } from 'vitest';
import { texts } from '../texts.ts';
import { ApiError } from './api.ts';
import { sendFailure } from './sendFailure.ts';

const SEND_FAILED_TEXT = 'Message failed to send. Please try again.';

describe('a failed send, while the browser is online', () => {
  it('shows the send-failure text alone when the network gave no answer, and queues the message', () => {
    expect(sendFailure(new TypeError('Failed to fetch'))).toEqual({
      error: SEND_FAILED_TEXT,
      hint: null,
      queue: true,
    });
  });

  it('shows the send-failure text alone on a 429; when to try again is a separate hint', () => {
    const failure = sendFailure(
      new ApiError(
        429,
        '',
        JSON.stringify({ error: 'rate_limited', message: 'slow down' }),
        new Headers({ 'retry-after': '12' }),
      ),
    );
    expect(failure.error).toBe(SEND_FAILED_TEXT);
    expect(failure.hint).toBe(texts.rateLimited(12));
    expect(failure.queue).toBe(false);
    expect(sendFailure(new ApiError(429, '', 'slow down')).hint).toBe(texts.rateLimited(null));
  });

  it('shows the send-failure text alone on any other refusal, and keeps the draft instead of queueing', () => {
    for (const status of [400, 403, 500, 503]) {
      expect(sendFailure(new ApiError(status, '', 'x'))).toEqual({
        error: SEND_FAILED_TEXT,
        hint: null,
        queue: false,
      });
    }
  });

  it("says the api's reason when the widget's site is no longer allowed (a retry could never work)", () => {
    const message =
      'This chat is not enabled on https://cara.example. The creator can add the site in Profile Settings.';
    expect(
      sendFailure(new ApiError(403, '', JSON.stringify({ error: 'site_not_allowed', message }))),
    ).toEqual({ error: message, hint: null, queue: false });
  });
});
