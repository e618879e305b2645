import type { Message } from '@fanpilot/contracts';
import { describe, expect, it } from 'vitest';
import { activityLine, newFanMessages, recentActivity, seenMessages } from './activity.ts';

const NOW = Date.parse('2026-11-22T12:00:00');
const m = (id: string, from: Message['from'], extra: Partial<Message> = {}): Message => ({
  id,
  from,
  message: `text ${id}`,
  timestamp: new Date(NOW - 60_000).toISOString(),
  created_at: new Date(NOW - 60_000).toISOString(),
  status: from === 'fan' ? 'answered' : null,
  fanId: 'fan_1',
  fanName: 'Finn',
  replyTo: null,
  ...extra,
});

describe('activityLine', () => {
  it('reads a fan message as the name, a colon, then the whole message', () => {
    const long = 'How often should I feed a sourdough starter that lives in the fridge?';
    expect(activityLine(m('1', 'fan', { message: long }))).toEqual({ label: 'Finn', text: long });
    expect(activityLine(m('2', 'fan', { fanName: null }))).toEqual({ label: 'Anonymous', text: 'text 2' });
  });

  it('labels AI and creator replies and cuts them to 30 characters', () => {
    const reply = 'Feed it once a week when it lives in the fridge.';
    expect(activityLine(m('3', 'Creatorai', { message: reply }))).toEqual({
      label: 'AI Coach response',
      text: 'Feed it once a week when it li...',
    });
    expect(activityLine(m('4', 'creator', { message: 'Short one' }))).toEqual({
      label: 'Creator response',
      text: 'Short one',
    });
  });
});

describe('recentActivity', () => {
  it('takes the first five of the newest-first list', () => {
    const list = ['9', '8', '7', '6', '5', '4'].map((id) => m(id, 'fan'));
    expect(recentActivity(list).map((x) => x.id)).toEqual(['9', '8', '7', '6', '5']);
  });
});

describe('newFanMessages', () => {
  it('finds fan messages that were not in the previous poll, ignoring replies', () => {
    const at = (minutesAgo: number) => ({ created_at: new Date(NOW - minutesAgo * 60_000).toISOString() });
    const before = seenMessages([m('2', 'fan', at(5)), m('1', 'fan', at(6))]);
    const now = [
      m('3', 'fan', at(1)),
      m('4', 'Creatorai', at(2)),
      m('2', 'fan', at(5)),
      m('1', 'fan', at(6)),
    ];
    expect(newFanMessages(before, now).map((x) => x.id)).toEqual(['3']);
  });

  it('is not fooled by older messages sliding into the window after a conversation is deleted', () => {
    const at = (minutesAgo: number) => ({ created_at: new Date(NOW - minutesAgo * 60_000).toISOString() });
    // Another fan's old message (id 0, 60 minutes ago) reappears once fan_1's newer ones are gone.
    const before = seenMessages([m('2', 'fan', at(5)), m('1', 'fan', at(6))]);
    const after = [m('0', 'fan', { ...at(60), fanId: 'fan_2', fanName: 'Gus' })];
    expect(newFanMessages(before, after)).toEqual([]);
    // A real new message still counts, even right after.
    expect(newFanMessages(seenMessages(after), [m('5', 'fan', at(0)), ...after]).map((x) => x.id)).toEqual([
      '5',
    ]);
  });
});
