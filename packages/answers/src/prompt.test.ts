import { describe, expect, it } from 'vitest';
import { modelRoute, providerKey } from './models.ts';
import { excerpt, inCreatorsVoice, offlineAnswer, offlineAnswerByMeaning } from './offline.ts';
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
    const roles = messages.map((m) => m.role);
    expect(roles).toEqual(['system', 'assistant', 'user', 'assistant', 'assistant', 'user']);
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

  it("drafts the creator's own reply in the first person, without the chatbot's role, openers or attribution", () => {
    const answer = String(buildPrompt(base)[0]!.content);
    const messages = buildPrompt({ ...base, voice: 'creator' });
    const system = String(messages[0]!.content);
    expect(system.startsWith('Speak like a baking coach.')).toBe(true);
    expect(system).toContain(
      "You draft a reply that Bea will read, edit and send personally to a fan in Bea's chat.",
    );
    expect(system).toContain('Write as Bea, in the first person');
    expect(system).toContain('no "— from …" line');
    expect(system).toContain('[1] Bread basics (https://coach.example/bread)\nFeed it twice a day.');
    expect(system).toContain(`write only ${NOT_IN_KNOWLEDGE}`);
    // Not the chatbot answering a fan for an absent creator.
    expect(system).not.toContain('AI assistant of Bea');
    expect(system).not.toContain('Bea is away');
    expect(answer).toContain('You are Crumb, the AI assistant of Bea.');
    // The chatbot's opening line is not the creator's; the conversation and the question stay.
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'assistant', 'user']);
    expect(String(messages.at(-1)!.content)).toBe('How often do I feed my starter?');
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
  const plan = {
    title: 'Marathon plan',
    source: 'plan.pdf',
    content:
      'Maya Stone coaches runners.\nWeek 8: rest on Monday.\nIn week 9 the Sunday long run is 24 km at an easy pace. Drink every 20 minutes on it.\nWeek 10: taper begins.',
  };
  const bio = {
    title: 'About Maya',
    source: 'https://maya.example/about',
    content: 'Hi, I am Maya! I run a small bakery menu on weekends and love long walks.',
  };

  it("in the creator's voice (a draft of their reply) gives the sentences as a reply: no quotation marks, no '— from' line", () => {
    const draft = offlineAnswer(
      'Maya Stone',
      'How long is the Sunday long run in week 9?',
      [bio, plan],
      'creator',
    );
    expect(draft).toEqual({ text: 'In week 9 the Sunday long run is 24 km at an easy pace.', from: 1 });
    // A fan's answer still quotes (its citation attributes it, record 0073).
    expect(offlineAnswer('Maya Stone', 'How long is the Sunday long run in week 9?', [bio, plan]).text).toBe(
      '“In week 9 the Sunday long run is 24 km at an easy pace.”',
    );
  });

  it('quotes the one or two sentences that answer, with no preamble and no title in the text (its citation attributes it)', () => {
    const answer = offlineAnswer('Maya Stone', 'How long is the Sunday long run in week 9?', [bio, plan]);
    expect(answer.from).toBe(1);
    expect(answer.text).toBe('“In week 9 the Sunday long run is 24 km at an easy pace.”');
    // The next sentence joins the quote when it carries the answer on (a word of the question).
    const two = offlineAnswer('Maya Stone', 'How long is the Sunday long run in week 9?', [
      { ...plan, content: 'In week 9 the Sunday long run is 24 km. Run it at an easy pace.' },
    ]);
    expect(two.text).toBe('“In week 9 the Sunday long run is 24 km. Run it at an easy pace.”');
    expect(answer.text).not.toMatch(/away right now|not a personal reply/);
  });

  it('says plainly that nothing matched, and hands over, for a greeting or an unrelated question', () => {
    for (const question of ['Hi Maya!', 'Hello Maya Stone, how are you?', 'What is the capital of Peru?']) {
      const answer = offlineAnswer('Maya Stone', question, [bio, plan]);
      expect(answer).toEqual({
        text: "I couldn't find this in Maya Stone's material, so I've passed your question on to Maya Stone, who will answer you personally.",
        from: null,
      });
    }
    // Words in common with the bio, but not the question's telling ones (week 9, Sunday).
    expect(offlineAnswer('Maya Stone', 'How long is the Sunday long run in week 9?', [bio]).from).toBeNull();
    expect(offlineAnswer('Bea', 'Anything?', []).from).toBeNull();
  });

  it("weighs sentences against the question in the creator's voice: the fan's you and your become I and my", async () => {
    expect(inCreatorsVoice('How often do you water your monstera?')).toBe(
      'How often do I water my monstera?',
    );
    expect(inCreatorsVoice('Are you live on Fridays, and were you ever late?')).toBe(
      'Am I live on Fridays, and was I ever late?',
    );
    expect(inCreatorsVoice("You're a coach: which shoes are yours, and how did you teach yourself?")).toBe(
      "I'm a coach: which shoes are mine, and how did I teach myself?",
    );
    // "you" after a preposition or a verb that takes it is the object; the fan's own I and my stay.
    expect(inCreatorsVoice('Can I send you my plan for you to check?')).toBe(
      'Can I send me my plan for me to check?',
    );
    expect(inCreatorsVoice('Your plan says rest. Do YOU rest?')).toBe('My plan says rest. Do I rest?');
    expect(inCreatorsVoice('What is the capital of Peru?')).toBe('What is the capital of Peru?');

    // The embedded answerer asks the encoder with that form; the quote and the gate are as before.
    const asked: string[] = [];
    const similarity = async (question: string, sentences: string[]) => {
      asked.push(question);
      return sentences.map((s) => (s.startsWith('I water my monstera') ? 0.7 : 0.1));
    };
    const plant = {
      title: 'Plants',
      source: 'https://maya.example/plants',
      content: 'I water my monstera once a week. I repot it in spring.',
    };
    const answer = await offlineAnswerByMeaning(
      'Maya',
      'How often do you water your monstera?',
      [plant],
      similarity,
    );
    expect(asked).toEqual(['How often do I water my monstera?']);
    expect(answer).toEqual({ text: '“I water my monstera once a week.”', from: 0 });
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
