import { idempotencyKeySchema } from '@fanpilot/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, outcomeOf, postAsk, toAskRequest } from './api.ts';
import { newLocalId } from './format.ts';

describe('ask request', () => {
  it('carries creator, message, fanId, and fanName and attachment only when given', () => {
    const base = { id: 'k', creator: 'ana', fanId: 'mobile_fan_x_1', message: 'hi', createdAt: 1 };
    expect(toAskRequest(base)).toEqual({ creator: 'ana', message: 'hi', fanId: 'mobile_fan_x_1' });
    expect(
      toAskRequest({
        ...base,
        fanName: 'Leo',
        attachment: { filename: 'a.png', contentBase64: 'iVBO', size: 4, type: 'image/png' },
      }),
    ).toEqual({
      creator: 'ana',
      message: 'hi',
      fanId: 'mobile_fan_x_1',
      fanName: 'Leo',
      attachment: { filename: 'a.png', contentBase64: 'iVBO' },
    });
  });
});

describe('send outcome', () => {
  const error = (status: number) => new ApiError(status, '', 'x');
  it('retries when there was no answer, or on 408, 429 and 5xx', () => {
    expect(outcomeOf(new TypeError('Failed to fetch'))).toBe('retry');
    for (const status of [408, 429, 500, 502, 503]) expect(outcomeOf(error(status))).toBe('retry');
  });
  it('gives up on other refusals', () => {
    for (const status of [400, 403, 404, 413]) expect(outcomeOf(error(status))).toBe('rejected');
  });
});

describe('Idempotency-Key', () => {
  it('is the outbox item id, a key the api accepts', async () => {
    const id = newLocalId();
    expect(idempotencyKeySchema.safeParse(id).success).toBe(true);
    const fetchMock = vi.fn(async () => new Response('{"success":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    try {
      await postAsk({ id, creator: 'ana', fanId: 'mobile_fan_x_1', message: 'hi', createdAt: 1 });
    } finally {
      vi.unstubAllGlobals();
    }
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(new Headers(init.headers).get('idempotency-key')).toBe(id);
  });

  it('a key reused for another message (422) is not retried', () => {
    expect(
      outcomeOf(
        new ApiError(422, '', JSON.stringify({ error: 'idempotency_key_reused', message: 'reused' })),
      ),
    ).toBe('rejected');
  });
});
