import type { Chatbot, Usage } from '@fanpilot/contracts';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../texts.ts';
import { ChatbotStatusCard } from './ChatbotStatusCard.tsx';

const chatbot: Chatbot = {
  id: 'b1',
  chatbotId: 'b1',
  name: 'Crumb',
  instructions: '',
  model: 'gpt-4o-mini',
  temp: 0.7,
  initialMessages: [],
  dailyAiBudget: 300,
  knowledge: [],
};

const usage = (aiAnswersToday: number, dailyAiBudget = 300): Usage => ({
  creditsUsed: aiAnswersToday,
  creditsRemaining: 1000 - aiAnswersToday,
  freeCredits: 1000,
  creditsPurchased: 0,
  aiAnswersToday,
  dailyAiBudget,
  aiBudgetReached: aiAnswersToday >= dailyAiBudget,
});

/** The card's text, tags dropped, and its status regions. */
function render(u: Usage) {
  const html = renderToStaticMarkup(
    createElement(ChatbotStatusCard, { chatbot, usage: u, onCreateChatbot: () => {} }),
  );
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
  return { html, text };
}

describe('ChatbotStatusCard and the daily AI budget', () => {
  it("shows today's AI answers against the budget, and no notice while there is room", () => {
    const { text } = render(usage(299));
    expect(text).toContain('701 credits remaining');
    expect(text).toContain('299 of 300 AI answers today');
    expect(text).not.toContain(TEXT.dashboard.budgetReached);
  });

  it('says plainly when the budget is used up: questions wait for the creator until midnight UTC', () => {
    const { html, text } = render(usage(300));
    expect(text).toContain('300 of 300 AI answers today');
    expect(text).toContain('Daily AI budget reached');
    expect(text).toContain(
      "Your AI has given today's 300 answers. Until midnight UTC, new questions wait for you to answer them.",
    );
    expect(text).toContain('raise the daily budget in Chatbot Settings');
    // Announced to assistive technology as a status.
    expect(html).toMatch(/role="status"[^>]*>\s*<p[^>]*>Daily AI budget reached/);
    expect(render(usage(1500, 1000)).text).toContain("today's 1,000 answers");
  });
});
