import { describe, expect, it } from 'vitest';
import { ANNOUNCEMENTS_TEXT } from './components/dashboard/announcements/texts.ts';
import { CHATS_TEXT } from './components/dashboard/chats/texts.ts';
import { GAPS_TEXT } from './components/dashboard/overview/gaps-texts.ts';
import { TEXT } from './texts.ts';

describe('count texts agree with their number', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect(CHATS_TEXT.fanCount(1)).toBe('1 fan');
    expect(CHATS_TEXT.fanCount(0)).toBe('0 fans');
    expect(CHATS_TEXT.fanCount(2)).toBe('2 fans');
    expect(CHATS_TEXT.waiting(1, 1)).toBe('1 message waiting from 1 fan');
    expect(CHATS_TEXT.waiting(0, 0)).toBe('0 messages waiting from 0 fans');
    expect(CHATS_TEXT.waiting(3, 1)).toBe('3 messages waiting from 1 fan');
    expect(CHATS_TEXT.messageCount(1)).toBe('1 message');
    expect(ANNOUNCEMENTS_TEXT.delivered(1)).toBe('Delivered to 1 fan');
    expect(ANNOUNCEMENTS_TEXT.delivered(4)).toBe('Delivered to 4 fans');
    expect(ANNOUNCEMENTS_TEXT.pushed(1)).toBe('Pushed to 1 device');
    expect(GAPS_TEXT.sentTo(1)).toBe('Sent to 1 fan.');
    expect(GAPS_TEXT.sentTo(2)).toBe('Sent to 2 fans.');
    expect(TEXT.newMessage.several(2)).toBe('2 new fan messages');
  });

  it('says credits and AI answers right for one', () => {
    expect(TEXT.dashboard.credits(1)).toBe('1 credit remaining');
    expect(TEXT.dashboard.credits(1000)).toBe('1,000 credits remaining');
    expect(TEXT.dashboard.aiAnswersOfBudget(0, 1)).toBe('0 of 1 AI answer today');
    expect(TEXT.dashboard.aiAnswersOfBudget(1, 5)).toBe('1 of 5 AI answers today');
    expect(TEXT.dashboard.budgetReachedDetail(1)).toContain("today's 1 answer.");
    expect(TEXT.billing.balance(1)).toBe('1 credit');
    expect(TEXT.billing.chartLabel('Jan 5', 1)).toBe('Jan 5: 1 AI answer');
    expect(TEXT.billing.todayOfBudget(0, 1)).toBe('Today: 0 of 1 AI answer (daily budget)');
    expect(TEXT.billing.budgetNote(1)).toBe(
      'The AI also stops for the day after 1 answer (your daily budget).',
    );
  });

  it("keeps 'N of M sources ready', in the singular for a single source", () => {
    expect(TEXT.knowledge.ready(2, 3)).toBe('2 of 3 sources ready');
    expect(TEXT.knowledge.ready(1, 1)).toBe('1 of 1 source ready');
    expect(TEXT.knowledge.ready(0, 1)).toBe('0 of 1 source ready');
  });
});
