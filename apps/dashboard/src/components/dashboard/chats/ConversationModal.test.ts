import type { Message } from '@fanpilot/contracts';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MessageBubble } from './ConversationModal.tsx';

const message = (fanName: string | null): Message => ({
  id: 'm1',
  from: 'fan',
  message: 'Hi, I am new here',
  timestamp: '2026-01-05T10:00:00.000Z',
  created_at: '2026-01-05T10:00:00.000Z',
  status: 'pending',
  fanId: 'mobile_fan_5140',
  fanName,
  replyTo: null,
});

/** The author line of a rendered bubble (its first paragraph). */
const author = (html: string) => html.match(/<p[^>]*>([^<]*)<\/p>/)?.[1];

describe('MessageBubble', () => {
  it("labels a fan's message with the conversation's current fan name, not the message's stale default", () => {
    const html = renderToStaticMarkup(
      createElement(MessageBubble, { message: message('Fan 5140'), fanName: 'Mina' }),
    );
    expect(author(html)).toBe('Mina');
    expect(html).not.toContain('Fan 5140');
  });

  it("falls back to the message's name, then to 'Anonymous', when the conversation has none", () => {
    expect(
      author(
        renderToStaticMarkup(createElement(MessageBubble, { message: message('Fan 5140'), fanName: null })),
      ),
    ).toBe('Fan 5140');
    expect(
      author(renderToStaticMarkup(createElement(MessageBubble, { message: message(null), fanName: null }))),
    ).toBe('Anonymous');
  });
});
