import type { ConversationSummary, Message } from '@fanpilot/contracts';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConversationRow } from './ConversationRow.tsx';

const question: Message = {
  id: 'm1',
  from: 'fan',
  message: 'How often should I feed my starter?',
  timestamp: '2026-01-05T10:00:00.000Z',
  created_at: '2026-01-05T10:00:00.000Z',
  status: 'pending',
  fanId: 'mobile_fan_finn01',
  fanName: 'Finn',
  replyTo: null,
};

const conversation: ConversationSummary = {
  fanId: 'mobile_fan_finn01',
  fanName: 'Finn',
  messageCount: 1,
  pendingCount: 1,
  lastActivityAt: question.timestamp,
  firstSeenAt: question.timestamp,
  latestFanMessage: question,
  latestReply: null,
  newestPending: question,
  subscriber: false,
};

const html = renderToStaticMarkup(
  createElement(ConversationRow, { conversation, onChat: () => {}, onRespond: () => {}, onDelete: () => {} }),
);

/** Each button: its attributes and its text (tags dropped). */
const buttons = [...html.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map((m) => ({
  attributes: m[1] ?? '',
  text: (m[2] ?? '').replace(/<[^>]*>/g, '').trim(),
}));

const attribute = (attributes: string, name: string) =>
  attributes.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1];

describe('ConversationRow', () => {
  it.each(['Chat', 'Respond'])(
    "names the '%s' button by its visible label only, with the fan's name as its description",
    (label) => {
      const button = buttons.find((b) => b.text === label);
      expect(button).toBeDefined();
      // No aria-label overrides the visible label (the product description (docs/product.md#chat-management) names the buttons 'Chat' and 'Respond').
      expect(attribute(button?.attributes ?? '', 'aria-label')).toBeUndefined();
      const describedBy = attribute(button?.attributes ?? '', 'aria-describedby');
      expect(describedBy).toBeTruthy();
      const description = html.match(new RegExp(`<[a-z0-9]+ id="${describedBy}"[^>]*>([^<]*)<`))?.[1];
      expect(description).toBe('Finn');
    },
  );

  it('keeps the rows apart: each is an article named after its fan', () => {
    expect(html).toMatch(/<article aria-label="Finn"/);
  });
});

describe('ConversationRow of an unnamed fan', () => {
  it("shows the dashboard's default name and the server's message count", () => {
    const unnamed = renderToStaticMarkup(
      createElement(ConversationRow, {
        conversation: { ...conversation, fanName: null, messageCount: 7 },
        onChat: () => {},
        onRespond: () => {},
        onDelete: () => {},
      }),
    );
    expect(unnamed).toMatch(/<article aria-label="Anonymous"/);
    expect(unnamed).toContain('7 messages');
  });
});

describe('ConversationRow subscriber mark', () => {
  it('marks a subscriber, and only a subscriber', () => {
    const render = (subscriber: boolean) =>
      renderToStaticMarkup(
        createElement(ConversationRow, {
          conversation: { ...conversation, subscriber },
          onChat: () => {},
          onRespond: () => {},
          onDelete: () => {},
        }),
      );
    expect(render(true)).toContain('>Subscriber<');
    expect(render(false)).not.toContain('Subscriber');
  });
});
