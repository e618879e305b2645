import type { Message } from '@fanpilot/contracts';
import { describe, expect, it } from 'vitest';
import { responseMode } from './response-mode.ts';

const fan = (
  id: string,
  timestamp: string,
  status: Message['status'],
  fanId: string | null = 'fan_1',
): Message => ({
  id,
  from: 'fan',
  message: 'q',
  timestamp,
  created_at: timestamp,
  status,
  fanId,
  fanName: 'Ana',
  replyTo: null,
});

describe('responseMode', () => {
  it('answers the newest pending fan message when there is one', () => {
    const messages = [
      fan('1', '2026-11-22T10:00:00Z', 'pending'),
      fan('3', '2026-11-22T10:05:00Z', 'pending'),
      fan('2', '2026-11-22T10:02:00Z', 'answered'),
    ];
    expect(responseMode({ fanId: 'fan_1', messages })).toEqual({ kind: 'answer', messageId: '3' });
  });

  it('answers a pending message even when the fan has no id', () => {
    expect(
      responseMode({ fanId: null, messages: [fan('7', '2026-11-22T10:00:00Z', 'pending', null)] }),
    ).toEqual({
      kind: 'answer',
      messageId: '7',
    });
  });

  it('sends a direct message when nothing is pending', () => {
    expect(
      responseMode({ fanId: 'fan_1', messages: [fan('1', '2026-11-22T10:00:00Z', 'answered')] }),
    ).toEqual({
      kind: 'direct',
      fanId: 'fan_1',
    });
    expect(responseMode({ fanId: 'fan_9', messages: [] })).toEqual({ kind: 'direct', fanId: 'fan_9' });
  });

  it('finds the fan id on the messages when the conversation lacks one', () => {
    expect(
      responseMode({ fanId: null, messages: [fan('1', '2026-11-22T10:00:00Z', 'answered', 'fan_2')] }),
    ).toEqual({
      kind: 'direct',
      fanId: 'fan_2',
    });
  });

  it('cannot send anywhere without a pending message or a fan id', () => {
    expect(
      responseMode({ fanId: null, messages: [fan('1', '2026-11-22T10:00:00Z', 'answered', null)] }),
    ).toEqual({
      kind: 'no-fan-id',
    });
  });
});
