import { describe, expect, it } from 'vitest';
import { modelRoute, providerKey } from './models.ts';
import { excerpt, offlineAnswer } from './offline.ts';
import { buildPrompt, knowledgeBlock, NOT_IN_KNOWLEDGE, replyText, withoutGapTag } from './prompt.ts';

describe('buildPrompt', () => {
  const base = {
    instructions: 'Speak like a baking coach.',
    chatbotName: 'Crumb',
    creatorName: 'Bea',
    initialMessages: ['Hi! Ask me about bread.'],
    history: [
      { from: 'fan' as const, text: 'Hello' },
      { from: 'Creatorai' as const, text: 'Hi there' },
      { from: 'creator' as const, text: 'Welcome!' },
    ],
    question: 'How often do I feed my starter?',
    knowledge: [
      { title: 'Bread basics', source: 'https://coach.example/bread', content: 'Feed it twice a day.' },
    ],
  };

  it('carries instructions, knowledge with sources, opening lines, history and the question, in order', () => {
    const messages = buildPrompt(base);
    const roles = messages.map((m) => m.getType());
    expect(roles).toEqual(['system', 'ai', 'human', 'ai', 'ai', 'human']);
    const system = String(messages[0]!.content);
    expect(system.startsWith('Speak like a baking coach.')).toBe(true);
    expect(system).toContain('[1] Bread basics (https://coach.example/bread)\nFeed it twice a day.');
    expect(String(messages[1]!.content)).toBe('Hi! Ask me about bread.');
    expect(String(messages[4]!.content)).toBe('(Bea, personally) Welcome!');
    expect(String(messages[5]!.content)).toBe('How often do I feed my starter?');
  });

  it('says when nothing matched and mentions an attachment the model cannot see', () => {
    const messages = buildPrompt({
      ...base,
      knowledge: [],
      attachment: { filename: 'plan.pdf', fileType: 'pdf' },
    });
    expect(String(messages[0]!.content)).toContain('No material of the creator matched this question.');
    expect(String(messages.at(-1)!.content)).toContain('plan.pdf');
  });

  it('bounds the knowledge block', () => {
    const big = Array.from({ length: 10 }, (_, i) => ({
      title: `T${i}`,
      source: '',
      content: 'x'.repeat(3000),
    }));
    expect(knowledgeBlock(big).length).toBeLessThan(9_000);
  });
});

describe('offline answerer', () => {
  it('quotes the best match, says plainly it is quoting the creator, and names the source', () => {
    const answer = offlineAnswer('Bea', [
      { title: 'Bread basics', source: 'https://coach.example/bread', content: 'Feed it twice a day.' },
      { title: 'Other', source: 'x', content: 'Other text' },
    ]);
    expect(answer.text).toContain("quoting Bea's own material");
    expect(answer.text).toContain('"Feed it twice a day."');
    expect(answer.sources).toEqual([{ title: 'Bread basics', source: 'https://coach.example/bread' }]);
  });

  it('says politely that nothing matched, with no sources, when nothing matched', () => {
    for (const knowledge of [[], [{ title: 'Empty', source: 'x', content: '   ' }]]) {
      expect(offlineAnswer('Bea', knowledge)).toEqual({
        text: "Bea is away right now and I couldn't find this in Bea's material yet. This is not a personal reply: your question has been passed on to Bea.",
        sources: [],
      });
    }
  });

  it('cuts long quotes at a sentence', () => {
    const text = `${'A short sentence. '.repeat(60)}`;
    const cut = excerpt(text, 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut.endsWith('.')).toBe(true);
  });
});

describe('model routes', () => {
  it('sends each selectable model to its provider', () => {
    expect(modelRoute('gpt-4o-mini')).toMatchObject({ provider: 'openai', name: 'gpt-4o-mini' });
    expect(modelRoute('gpt-3.5-turbo')).toMatchObject({ provider: 'openai' });
    expect(modelRoute('claude-3-haiku-20240307')).toMatchObject({ provider: 'anthropic' });
    expect(modelRoute('gemini-pro')).toMatchObject({ provider: 'google' });
    expect(modelRoute('deepseek-v3')).toMatchObject({ provider: 'deepseek', name: 'deepseek-chat' });
    expect(modelRoute('something-else')).toMatchObject({ choice: 'gpt-4o-mini', provider: 'openai' });
  });

  it('treats a blank key as no key', () => {
    expect(providerKey('openai', { OPENAI_API_KEY: '  ' })).toBeUndefined();
    expect(providerKey('anthropic', { ANTHROPIC_API_KEY: 'k' })).toBe('k');
  });

  it('reads text out of any reply shape', () => {
    expect(replyText(' hi ')).toBe('hi');
    expect(
      replyText([
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ]),
    ).toBe('ab');
    expect(replyText(undefined)).toBe('');
  });
});

describe('withoutGapTag', () => {
  it('removes the not-in-knowledge tag wherever and however the model wrote it, and says it was there', () => {
    expect(withoutGapTag('I could not find that. [not in knowledge]')).toEqual({
      text: 'I could not find that.',
      gap: true,
    });
    expect(withoutGapTag('[ Not In Knowledge ] Sorry, no idea.')).toEqual({
      text: 'Sorry, no idea.',
      gap: true,
    });
    expect(withoutGapTag('Feed it twice a day.')).toEqual({ text: 'Feed it twice a day.', gap: false });
  });

  it('is what the prompt tells the model to write', () => {
    const [system] = buildPrompt({
      instructions: '',
      chatbotName: 'Bot',
      creatorName: 'Bea',
      initialMessages: [],
      history: [],
      question: 'Hi?',
      knowledge: [],
    });
    expect(String(system?.content)).toContain(`end your reply with ${NOT_IN_KNOWLEDGE}`);
    expect(withoutGapTag(`Sorry. ${NOT_IN_KNOWLEDGE}`).gap).toBe(true);
  });
});
