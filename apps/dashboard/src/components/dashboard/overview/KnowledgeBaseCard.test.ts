import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../texts.ts';
import { KnowledgeBaseCard } from './KnowledgeBaseCard.tsx';

function render(chatbot: null | undefined) {
  return renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(KnowledgeBaseCard, { username: 'creator', chatbot, onAddKnowledge: () => {} }),
    ),
  );
}

/** The text of every paragraph, tags dropped. */
const paragraphs = (html: string) =>
  [...html.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)].map((m) => (m[1] ?? '').replace(/<[^>]*>/g, '').trim());

describe('KnowledgeBaseCard empty state', () => {
  it('shows the empty-knowledge text on its own, and the no-chatbot note as a separate paragraph', () => {
    const texts = paragraphs(render(null));
    expect(texts).toContain('No knowledge sources added yet');
    expect(texts).toContain(TEXT.knowledge.noChatbot);
  });

  it('shows the empty text alone while the chatbot is loading', () => {
    const texts = paragraphs(render(undefined));
    expect(texts).toContain('No knowledge sources added yet');
    expect(texts).not.toContain(TEXT.knowledge.noChatbot);
  });
});
