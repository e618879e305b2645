import type { Message } from '@fanpilot/contracts';
import { describe, expect, it } from 'vitest';
import { byTime, isPending, isReply } from './conversations.ts';

function msg(overrides: Partial<Message> & Pick<Message, 'id' | 'from' | 'timestamp'>): Message {
  return {
    message: `message ${overrides.id}`,
    created_at: overrides.timestamp,
    status: overrides.from === 'fan' ? 'answered' : null,
    fanId: null,
    fanName: null,
    replyTo: null,
    ...overrides,
  };
}

describe('byTime', () => {
  it('orders oldest first, and messages of the same instant by id, numerically', () => {
    const at = '2026-11-22T10:00:00.000Z';
    const ten = msg({ id: '10', from: 'fan', timestamp: at });
    const nine = msg({ id: '9', from: 'fan', timestamp: at });
    const earlier = msg({ id: '11', from: 'fan', timestamp: '2026-11-22T09:00:00.000Z' });
    expect([ten, nine, earlier].sort(byTime).map((m) => m.id)).toEqual(['11', '9', '10']);
  });
});

describe('isPending and isReply', () => {
  it('tells pending fan questions and replies apart', () => {
    const at = '2026-11-22T10:00:00.000Z';
    expect(isPending(msg({ id: '1', from: 'fan', timestamp: at, status: 'pending' }))).toBe(true);
    expect(isPending(msg({ id: '2', from: 'fan', timestamp: at }))).toBe(false);
    expect(isReply(msg({ id: '3', from: 'Creatorai', timestamp: at }))).toBe(true);
    expect(isReply(msg({ id: '4', from: 'creator', timestamp: at }))).toBe(true);
    expect(isReply(msg({ id: '5', from: 'fan', timestamp: at }))).toBe(false);
  });
});
