import type { Message } from '@fanpilot/contracts';
import { describe, expect, it } from 'vitest';
import {
  conversationDeleteKey,
  conversationSummary,
  filterConversations,
  groupConversations,
  latestMessages,
} from './conversations.ts';

let nextId = 1;
function msg(overrides: Partial<Message> & Pick<Message, 'from' | 'timestamp'>): Message {
  const id = String(nextId++);
  return {
    id,
    message: `message ${id}`,
    created_at: overrides.timestamp,
    status: overrides.from === 'fan' ? 'answered' : null,
    fanId: null,
    fanName: null,
    replyTo: null,
    ...overrides,
  };
}

const at = (hhmm: string, day = '2026-11-22') => new Date(`${day}T${hhmm}:00`).toISOString();

describe('groupConversations', () => {
  it('groups by fan id and carries the SPEC fields', () => {
    const q = msg({
      from: 'fan',
      fanId: 'mobile_fan_a',
      fanName: 'Ana',
      timestamp: at('10:00'),
      status: 'pending',
    });
    const other = msg({ from: 'fan', fanId: 'mobile_fan_b', fanName: 'Ben', timestamp: at('10:01') });
    const reply = msg({
      from: 'Creatorai',
      fanId: 'mobile_fan_b',
      timestamp: at('10:02'),
      replyTo: other.id,
    });
    const [ben, ana] = groupConversations([reply, q, other]);
    expect(ben).toMatchObject({
      fanId: 'mobile_fan_b',
      fanName: 'Ben',
      pendingCount: 0,
      hasCreatorResponse: true,
      lastMessageTime: reply.timestamp,
    });
    expect(ben?.messages.map((m) => m.id)).toEqual([other.id, reply.id]);
    expect(ana).toMatchObject({
      fanId: 'mobile_fan_a',
      fanName: 'Ana',
      pendingCount: 1,
      hasCreatorResponse: false,
    });
  });

  it('groups anonymous fans by name plus day', () => {
    const monday = msg({ from: 'fan', fanName: 'Guest', timestamp: at('09:00', '2026-11-20') });
    const mondayAgain = msg({ from: 'fan', fanName: 'Guest', timestamp: at('18:00', '2026-11-20') });
    const tuesday = msg({ from: 'fan', fanName: 'Guest', timestamp: at('09:00', '2026-11-21') });
    const otherName = msg({ from: 'fan', fanName: 'Visitor', timestamp: at('09:30', '2026-11-21') });
    const conversations = groupConversations([monday, mondayAgain, tuesday, otherName]);
    expect(conversations).toHaveLength(3);
    expect(conversations.map((c) => [c.fanName, c.fanId, c.messages.length])).toEqual([
      ['Visitor', null, 1],
      ['Guest', null, 1],
      ['Guest', null, 2],
    ]);
  });

  it('names a fan without any name Anonymous', () => {
    const [only] = groupConversations([msg({ from: 'fan', timestamp: at('08:00') })]);
    expect(only?.fanName).toBe('Anonymous');
  });

  it('attaches a creator message without a fan id to the most recently active conversation', () => {
    const a = msg({ from: 'fan', fanId: 'fan_a', fanName: 'Ana', timestamp: at('10:00') });
    const b = msg({ from: 'fan', fanId: 'fan_b', fanName: 'Ben', timestamp: at('10:05') });
    const loose = msg({ from: 'creator', timestamp: at('10:06') });
    const [ben, ana] = groupConversations([a, b, loose]);
    expect(ben?.messages.map((m) => m.id)).toEqual([b.id, loose.id]);
    expect(ben?.hasCreatorResponse).toBe(true);
    expect(ana?.hasCreatorResponse).toBe(false);
  });

  it('is judged at the time it was sent: later activity elsewhere does not move it', () => {
    const a = msg({ from: 'fan', fanId: 'fan_a', fanName: 'Ana', timestamp: at('10:00') });
    const loose = msg({ from: 'creator', timestamp: at('10:01') });
    const b = msg({ from: 'fan', fanId: 'fan_b', fanName: 'Ben', timestamp: at('10:05') });
    const conversations = groupConversations([b, loose, a]);
    expect(conversations.find((c) => c.fanId === 'fan_a')?.messages.map((m) => m.id)).toEqual([
      a.id,
      loose.id,
    ]);
  });

  it('prefers the question a reply without a fan id names', () => {
    const a = msg({ from: 'fan', fanName: 'Guest', timestamp: at('10:00'), status: 'answered' });
    const b = msg({ from: 'fan', fanId: 'fan_b', fanName: 'Ben', timestamp: at('10:05') });
    const reply = msg({ from: 'Creatorai', timestamp: at('10:06'), replyTo: a.id });
    const guest = groupConversations([a, b, reply]).find((c) => c.fanName === 'Guest');
    expect(guest?.messages.map((m) => m.id)).toEqual([a.id, reply.id]);
  });

  it('leaves out a creator message sent before any conversation existed', () => {
    const early = msg({ from: 'creator', timestamp: at('07:00') });
    const a = msg({ from: 'fan', fanId: 'fan_a', timestamp: at('10:00') });
    const [only] = groupConversations([early, a]);
    expect(only?.messages.map((m) => m.id)).toEqual([a.id]);
  });

  it('sorts conversations by latest activity, newest first, and messages oldest first', () => {
    const a1 = msg({ from: 'fan', fanId: 'fan_a', timestamp: at('09:00') });
    const b1 = msg({ from: 'fan', fanId: 'fan_b', timestamp: at('09:30') });
    const a2 = msg({ from: 'creator', fanId: 'fan_a', timestamp: at('10:00') });
    const conversations = groupConversations([a2, b1, a1]);
    expect(conversations.map((c) => c.fanId)).toEqual(['fan_a', 'fan_b']);
    expect(conversations[0]?.messages.map((m) => m.id)).toEqual([a1.id, a2.id]);
  });

  it('orders messages of the same instant by id, numerically', () => {
    const t = at('11:00');
    const nine = { ...msg({ from: 'fan', fanId: 'f', timestamp: t }), id: '9' };
    const ten = { ...msg({ from: 'creator', fanId: 'f', timestamp: t }), id: '10' };
    expect(groupConversations([ten, nine])[0]?.messages.map((m) => m.id)).toEqual(['9', '10']);
  });

  it('uses the newest name a fan gave', () => {
    const first = msg({ from: 'fan', fanId: 'f', fanName: 'Fan 1a2b', timestamp: at('09:00') });
    const renamed = msg({ from: 'fan', fanId: 'f', fanName: 'Finn', timestamp: at('09:10') });
    expect(groupConversations([first, renamed])[0]?.fanName).toBe('Finn');
  });
});

describe('filters, rows and summary', () => {
  const pending = msg({ from: 'fan', fanId: 'p', fanName: 'Pia', timestamp: at('10:00'), status: 'pending' });
  const pending2 = msg({
    from: 'fan',
    fanId: 'p',
    fanName: 'Pia',
    timestamp: at('10:01'),
    status: 'pending',
  });
  const done = msg({ from: 'fan', fanId: 'd', fanName: 'Dan', timestamp: at('09:00', '2026-11-01') });
  const doneReply = msg({
    from: 'creator',
    fanId: 'd',
    timestamp: at('09:05', '2026-11-01'),
    message: 'Sure!',
  });
  const conversations = groupConversations([pending, pending2, done, doneReply]);

  it('Unread keeps conversations with a pending fan message; Answered the rest; All keeps both', () => {
    expect(filterConversations(conversations, 'unread').map((c) => c.fanName)).toEqual(['Pia']);
    expect(filterConversations(conversations, 'answered').map((c) => c.fanName)).toEqual(['Dan']);
    expect(filterConversations(conversations, 'all')).toHaveLength(2);
  });

  it('finds the latest fan message and the latest reply of a row', () => {
    const dan = conversations.find((c) => c.fanName === 'Dan')!;
    expect(latestMessages(dan)).toEqual({ fan: done, reply: doneReply });
    const pia = conversations.find((c) => c.fanName === 'Pia')!;
    expect(latestMessages(pia)).toEqual({ fan: pending2 });
  });

  it("counts fans, messages waiting, fans waiting and today's active fans", () => {
    expect(conversationSummary(conversations, Date.parse(at('12:00')))).toEqual({
      fans: 2,
      waitingMessages: 2,
      waitingFans: 1,
      unansweredChats: 1,
      activeFansToday: 1,
    });
  });

  it('deletes by fan id, or by name for an anonymous fan', () => {
    expect(conversationDeleteKey(conversations[0]!)).toBe('p');
    const [guest] = groupConversations([msg({ from: 'fan', fanName: 'Guest', timestamp: at('10:00') })]);
    expect(conversationDeleteKey(guest!)).toBe('Guest');
  });
});
