import { describe, expect, it } from 'vitest';
import { redactUrl, requestLogLevel } from './logging.ts';

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

describe('request log levels', () => {
  it('puts routine reads (polls, unchanged 304s, pages) at debug', () => {
    expect(requestLogLevel('GET', 200)).toBe('debug');
    expect(requestLogLevel('GET', 304)).toBe('debug');
    expect(requestLogLevel('HEAD', 302)).toBe('debug');
    expect(requestLogLevel('GET', 401)).toBe('debug');
  });

  it('keeps writes and refusals at info and server errors at error', () => {
    expect(requestLogLevel('POST', 201)).toBe('info');
    expect(requestLogLevel('DELETE', 204)).toBe('info');
    expect(requestLogLevel('GET', 404)).toBe('info');
    expect(requestLogLevel('POST', 401)).toBe('info');
    expect(requestLogLevel('PATCH', 409)).toBe('info');
    expect(requestLogLevel('GET', 500)).toBe('error');
    expect(requestLogLevel('POST', 503)).toBe('error');
  });
});
