import { describe, expect, it } from 'vitest';
import { answerJobId, answerJobSchema } from './jobs.ts';
import {
  answerRequestSchema,
  askHeadersSchema,
  askRequestSchema,
  FAN_ATTACHMENT_MAX_BASE64_LENGTH,
} from './messages.ts';
import { setNoticeRequestSchema } from './status.ts';

describe('askRequestSchema', () => {
  const base = { creator: 'bea', message: ' Hi ', fanId: 'mobile_fan_1' };

  it('trims the message and drops an empty fan name', () => {
    expect(askRequestSchema.parse({ ...base, fanName: '  ' })).toEqual({
      creator: 'bea',
      message: 'Hi',
      fanId: 'mobile_fan_1',
      fanName: undefined,
    });
  });

  it('accepts base64 with or without a data URL prefix, and nothing else', () => {
    const plain = askRequestSchema.parse({
      ...base,
      attachment: { filename: 'a.png', contentBase64: 'iVBORw==' },
    });
    expect(plain.attachment?.contentBase64).toBe('iVBORw==');
    const dataUrl = askRequestSchema.parse({
      ...base,
      attachment: { filename: 'a.png', contentBase64: 'data:image/png;base64,iVBORw==' },
    });
    expect(dataUrl.attachment?.contentBase64).toBe('iVBORw==');
    expect(
      askRequestSchema.safeParse({ ...base, attachment: { filename: 'a', contentBase64: '<html>' } }).success,
    ).toBe(false);
  });

  it('bounds the attachment to 10 MB of bytes', () => {
    expect(FAN_ATTACHMENT_MAX_BASE64_LENGTH).toBe(13_981_016);
    const tooBig = 'A'.repeat(FAN_ATTACHMENT_MAX_BASE64_LENGTH + 4);
    const result = askRequestSchema.safeParse({
      ...base,
      attachment: { filename: 'a', contentBase64: tooBig },
    });
    expect(result.success).toBe(false);
  });

  it('refuses fan ids with odd characters', () => {
    expect(askRequestSchema.safeParse({ ...base, fanId: 'a b' }).success).toBe(false);
    expect(askRequestSchema.safeParse({ ...base, fanId: 'x'.repeat(201) }).success).toBe(false);
  });
});

describe('askHeadersSchema', () => {
  it('takes an optional Idempotency-Key of up to 100 of A-Z a-z 0-9 _ . : - and keeps every other header', () => {
    const uuid = '0b7c3f5e-8f0a-4c1e-9f55-1c2d3e4f5a6b';
    expect(askHeadersSchema.parse({ 'idempotency-key': uuid, cookie: 'fp_fan=x' })).toEqual({
      'idempotency-key': uuid,
      cookie: 'fp_fan=x',
    });
    expect(askHeadersSchema.parse({ host: 'a' })).toEqual({ host: 'a' });
    expect(askHeadersSchema.safeParse({ 'idempotency-key': 'k'.repeat(100) }).success).toBe(true);
    expect(askHeadersSchema.safeParse({ 'idempotency-key': 'a_b.c:d-1' }).success).toBe(true);
  });

  it('refuses an empty, too long or oddly written key', () => {
    for (const key of ['', 'k'.repeat(101), 'a b', 'key/1', 'a, b', 'ключ']) {
      expect(askHeadersSchema.safeParse({ 'idempotency-key': key }).success).toBe(false);
    }
  });
});

describe('answerRequestSchema', () => {
  it('takes message ids as strings or numbers, never anything else', () => {
    expect(answerRequestSchema.parse({ creator: 'bea', messageId: 42, response: 'ok' }).messageId).toBe('42');
    expect(answerRequestSchema.safeParse({ creator: 'bea', messageId: '0', response: 'ok' }).success).toBe(
      false,
    );
    expect(
      answerRequestSchema.safeParse({ creator: 'bea', messageId: '1; drop', response: 'ok' }).success,
    ).toBe(false);
  });
});

describe('setNoticeRequestSchema', () => {
  it('trims, and enforces 1 to 500 characters with a message that gives the length', () => {
    expect(setNoticeRequestSchema.parse({ message: `  ${'a'.repeat(500)} ` }).message).toHaveLength(500);
    const long = setNoticeRequestSchema.safeParse({ message: 'a'.repeat(501) });
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]?.message).toBe(
      'An announcement holds at most 500 characters; this one has 501',
    );
    expect(setNoticeRequestSchema.safeParse({ message: '   ' }).success).toBe(false);
  });
});

describe('answer jobs', () => {
  it('carry a message id and deduplicate by it', () => {
    expect(answerJobSchema.parse({ messageId: '7' })).toEqual({ messageId: '7' });
    expect(answerJobSchema.safeParse({ messageId: 'x' }).success).toBe(false);
    expect(answerJobId('7')).toBe('answer-7');
  });
});
