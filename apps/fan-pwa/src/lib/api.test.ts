import { describe, expect, it } from 'vitest';
import { ApiError, outcomeOf, toAskRequest } from './api.ts';

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
  const error = (status: number) => new ApiError(status, `${status}: x`, null, null);
  it('retries when there was no answer, or on 408, 429 and 5xx', () => {
    expect(outcomeOf(new TypeError('Failed to fetch'))).toBe('retry');
    for (const status of [408, 429, 500, 502, 503]) expect(outcomeOf(error(status))).toBe('retry');
  });
  it('gives up on other refusals', () => {
    for (const status of [400, 403, 404, 413]) expect(outcomeOf(error(status))).toBe('rejected');
  });
});
