import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looksLikeFollowUp, searchQuery } from './followup.ts';
import { createChatModel } from './models.ts';

describe('what a follow-up is searched with', () => {
  let openai: FakeOpenAI;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
  });
  afterAll(async () => openai?.close());
  const model = () =>
    createChatModel(
      'gpt-4o-mini',
      { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: openai.baseUrl },
      { temperature: 0 },
    );
  const earlier = [
    { from: 'fan', text: 'Tell me about the Granite Bowl' },
    { from: 'Creatorai', text: 'The Granite Bowl is a protein breakfast bowl.' },
  ];

  it('asks the model to rewrite a follow-up so it stands alone, with the conversation', async () => {
    openai.answerWith(() => 'How much whey goes in the Granite Bowl?');
    const before = openai.requests.length;
    const q = await searchQuery(await model(), earlier, 'How much whey goes in it?');
    expect(q).toEqual({ question: 'How much whey goes in the Granite Bowl?', context: [], rewritten: true });
    const sent = JSON.stringify(openai.requests.slice(before));
    expect(sent).toContain('Tell me about the Granite Bowl');
    expect(sent).toContain('How much whey goes in it?');
  });

  it('searches with the fan’s recent turns when the model fails, and without a model', async () => {
    openai.failNext(3, 503);
    const failed = await searchQuery(await model(), earlier, 'How much whey goes in it?', {
      timeoutMs: 3_000,
    });
    expect(failed).toEqual({
      question: 'How much whey goes in it?',
      context: ['Tell me about the Granite Bowl'],
      rewritten: false,
    });
    const many = [1, 2, 3, 4, 5].map((i) => ({ from: 'fan', text: `turn ${i}` }));
    expect(await searchQuery(null, many, 'And that one?')).toEqual({
      question: 'And that one?',
      context: ['turn 3', 'turn 4', 'turn 5'],
      rewritten: false,
    });
  });

  it('searches a first question, and one that does not point back, alone, with no model call', async () => {
    const before = openai.requests.length;
    expect(await searchQuery(await model(), [], 'How much whey goes in it?')).toEqual({
      question: 'How much whey goes in it?',
      context: [],
      rewritten: false,
    });
    const standalone = await searchQuery(
      await model(),
      earlier,
      'What time is the Sunday long run in week 9?',
    );
    expect(standalone).toEqual({
      question: 'What time is the Sunday long run in week 9?',
      context: [],
      rewritten: false,
    });
    expect(openai.requests.length).toBe(before);
    expect(looksLikeFollowUp('How much whey goes in it?')).toBe(true);
    expect(looksLikeFollowUp('And the price?')).toBe(true);
    expect(looksLikeFollowUp('What is the Granite Bowl?')).toBe(false);
    expect(looksLikeFollowUp('Quantum chromodynamics?')).toBe(false);
  });

  it('tells a follow-up in Spanish, French, German, Portuguese and Italian, whole words only', () => {
    for (const q of [
      '¿Cuánto cuesta eso?',
      '¿Y el precio?',
      'Combien coûte-t-elle ?',
      'Et le prix ?',
      'Wie lange dauert das?',
      'Und der Preis?',
      'Quanto custa isso?',
      'E o preço?',
      'Quanto costa questo?',
      'Ma quanto dura?',
      'ÉL lo recomienda?',
    ]) {
      expect(looksLikeFollowUp(q), q).toBe(true);
    }
    for (const q of [
      '¿Cuál es el horario del gimnasio?',
      'Quel est le programme de la semaine 9 ?',
      'Wann beginnt der Kurs am Montag?',
      'Qual é o horário da academia?',
      'Qual è il programma della settimana 9?',
      // Pointing words inside others do not count: "eso" in "peso", "il" in "avril", "e" in "E-book".
      '¿Cuál es el peso ideal?',
      'Le cours commence en avril ?',
      'E-book price for the course?',
    ]) {
      expect(looksLikeFollowUp(q), q).toBe(false);
    }
  });

  it('treats an empty or hostile rewrite as no rewrite: the fan’s turns instead', async () => {
    openai.answerWith(() => '   ');
    const empty = await searchQuery(await model(), earlier, 'How much whey goes in it?');
    expect(empty.rewritten).toBe(false);
    expect(empty.context).toEqual(['Tell me about the Granite Bowl']);
    openai.answerWith(() => 'x'.repeat(5_000));
    const long = await searchQuery(await model(), earlier, 'How much whey goes in it?');
    expect(long.question.length).toBeLessThanOrEqual(1_000);
  });
});
