import { ApiError } from '@fanpilot/contracts';
import { describe, expect, it } from 'vitest';
import { askPushPermission, PUSH_TEXTS, PushSetupError, pushFailureText, pushStep } from './push-failure.ts';

describe('why turning push on failed', () => {
  it('says the browser blocked notifications, or that its question was closed', async () => {
    const denied = await askPushPermission(async () => 'denied').catch((e: unknown) => e);
    expect(pushFailureText(denied)).toBe(PUSH_TEXTS.blocked);
    expect(pushFailureText(denied)).toContain('site settings');
    const dismissed = await askPushPermission(async () => 'default').catch((e: unknown) => e);
    expect(pushFailureText(dismissed)).toBe(PUSH_TEXTS.dismissed);
    await expect(askPushPermission(async () => 'granted')).resolves.toBeUndefined();
  });

  it("names the push service and the browser's own error when subscribing fails", async () => {
    const failed = await pushStep('subscribe', async () => {
      throw new DOMException('Registration failed - push service error', 'AbortError');
    }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(PushSetupError);
    expect(pushFailureText(failed)).toBe(
      'The browser’s push service could not be reached (AbortError: Registration failed - push service error). Check your connection, then try again.',
    );
  });

  it("gives the api's refusal in its own words, a status without them, and an unreachable api", async () => {
    const refusal = new ApiError(
      404,
      'Not Found',
      JSON.stringify({ error: 'not_found', message: 'Ask a question first, then turn notifications on.' }),
    );
    const refused = await pushStep('api', async () => Promise.reject(refusal)).catch((e: unknown) => e);
    expect(pushFailureText(refused)).toBe('Ask a question first, then turn notifications on.');
    expect(pushFailureText(new PushSetupError('api', new ApiError(502, 'Bad Gateway', '')))).toBe(
      PUSH_TEXTS.refused(502),
    );
    expect(pushFailureText(new PushSetupError('api', new TypeError('Failed to fetch')))).toBe(
      PUSH_TEXTS.unreachable,
    );
    expect(pushFailureText(new PushSetupError('worker', new TypeError('bad script')))).toContain(
      'could not start its notification worker (TypeError: bad script)',
    );
  });

  it('never answers with a bare "Please try again"', () => {
    for (const step of ['permission', 'worker', 'subscribe', 'api'] as const) {
      expect(pushFailureText(new PushSetupError(step, new Error('x')))).not.toMatch(
        /^.*Please try again\.?$/,
      );
    }
  });
});
