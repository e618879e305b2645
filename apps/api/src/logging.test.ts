import { describe, expect, it } from 'vitest';
import { redactUrl } from './logging.ts';

describe('request URLs in logs', () => {
  it('hides the OAuth code and state and pre-signed credentials', () => {
    expect(redactUrl('/auth/google/callback?code=abc-123&state=xyz')).toBe(
      '/auth/google/callback?code=[Redacted]&state=[Redacted]',
    );
    expect(redactUrl('/objects/a.png?X-Amz-Signature=f00&X-Amz-Date=1&X-Amz-Credential=k%2Fx')).toBe(
      '/objects/a.png?X-Amz-Signature=[Redacted]&X-Amz-Date=1&X-Amz-Credential=[Redacted]',
    );
  });

  it('leaves other URLs as they are', () => {
    expect(redactUrl('/api/chatlog/fan/mobile_fan_1?creator=bea')).toBe(
      '/api/chatlog/fan/mobile_fan_1?creator=bea',
    );
    expect(redactUrl('/healthz')).toBe('/healthz');
    expect(redactUrl('/x?flag&code')).toBe('/x?flag&code');
  });
});
