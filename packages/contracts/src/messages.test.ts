import { describe, expect, it } from 'vitest';
import { chatbotSettingsRequestSchema, createChatbotRequestSchema } from './chatbot.ts';
import { creatorSignupRequestSchema } from './creator.ts';
import { answerJobId, answerJobSchema } from './jobs.ts';
import {
  answerRequestSchema,
  askHeadersSchema,
  askRequestSchema,
  FAN_ATTACHMENT_MAX_BASE64_LENGTH,
  sendMessageRequestSchema,
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
  it('trims and refuses an empty announcement, but does not enforce the 500-character counter', () => {
    expect(setNoticeRequestSchema.parse({ message: `  ${'a'.repeat(500)} ` }).message).toHaveLength(500);
    expect(setNoticeRequestSchema.parse({ message: 'a'.repeat(501) }).message).toHaveLength(501);
    expect(setNoticeRequestSchema.parse({ message: 'a'.repeat(5000) }).message).toHaveLength(5000);
    for (const message of ['   ', '', undefined, null]) {
      const empty = setNoticeRequestSchema.safeParse({ message });
      expect(empty.success).toBe(false);
      expect(empty.error?.issues[0]?.message).toBe('An announcement must not be empty');
    }
    // Only an abusive size is refused.
    expect(setNoticeRequestSchema.safeParse({ message: 'a'.repeat(100_001) }).success).toBe(false);
  });
});

describe('required fields', () => {
  it('give the same words whether missing, null or blank', () => {
    for (const fanId of [undefined, null, '', '   ']) {
      const res = sendMessageRequestSchema.safeParse({ fanId, message: 'Hi', creatorUsername: 'bea' });
      expect(res.error?.issues[0]?.message).toBe('Cannot find fan ID. Please try again.');
      expect(res.error?.issues[0]?.path).toEqual(['fanId']);
    }
    for (const name of [undefined, null, '', '   ']) {
      for (const [schema, body] of [
        [createChatbotRequestSchema, { name }],
        [chatbotSettingsRequestSchema, { name, model: 'gpt-4o-mini' }],
        [creatorSignupRequestSchema, { chatbotName: name, profileImageUrl: '/objects/uploads/x' }],
      ] as const) {
        expect(schema.safeParse(body).error?.issues[0]?.message).toBe('Please enter a chatbot name');
      }
    }
  });

  it('keep their own words for other refusals', () => {
    expect(createChatbotRequestSchema.safeParse({ name: 'n'.repeat(101) }).error?.issues[0]?.message).toMatch(
      /100/,
    );
    expect(
      askRequestSchema.safeParse({ ...{ creator: 'bea', message: 'Hi' }, fanId: 'a b' }).error?.issues[0]
        ?.message,
    ).toBe('fanId holds letters, digits, and _ . : -');
  });
});

describe('answer jobs', () => {
  it('carry a message id and deduplicate by it', () => {
    expect(answerJobSchema.parse({ messageId: '7' })).toEqual({ messageId: '7' });
    expect(answerJobSchema.safeParse({ messageId: 'x' }).success).toBe(false);
    expect(answerJobId('7')).toBe('answer-7');
  });
});
