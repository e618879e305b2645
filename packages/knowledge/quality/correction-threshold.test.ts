import { asksSameQuestion, CORRECTION_SIMILARITY, cosine, normalizeQuestion } from '@fanpilot/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalEmbedder, LOCAL_ENCODER_ID } from '../src/ingest/local-encoder.ts';

/**
 * A correction answers its question and the same question in other words
 * (packages/core/src/corrections.ts, sameQuestionScore): by meaning, a cosine of at least
 * CORRECTION_SIMILARITY between the questions' embeddings. Measured here with the real local encoder
 * on questions a fan would ask: paraphrases (should match) and look-alike questions of the same topic
 * that ask something else (must not: a fan would get an answer to another question).
 */
const PARAPHRASES: [string, string][] = [
  ['How often should I feed my sourdough starter?', 'How frequently do you feed a sourdough starter?'],
  ['What time does the Sunday long run start?', 'When does the long run on Sunday begin?'],
  ['How much does the coaching program cost?', 'What is the price of your coaching program?'],
  ['Do you ship to Canada?', 'Can I get my order delivered to Canada?'],
  ['What guitar strings do you use?', 'Which strings are on your guitar?'],
  ['How many hours do you sleep before a race?', 'How much sleep do you get the night before a race?'],
  ['Is the course suitable for beginners?', 'Can a complete beginner take this course?'],
  ['What camera do you film with?', 'Which camera do you use for your videos?'],
  ['How long should I rest between sets?', 'How much rest do you take between sets?'],
  ['Where can I buy your cookbook?', 'Where is your cookbook sold?'],
  ["What's your refund policy?", "Can I get my money back if I don't like it?"],
  ['How do I cancel my subscription?', 'How can I stop my membership?'],
  ['How often should I feed my sourdough starter?', 'how often do you feed the sourdough starter'],
  ['What protein powder do you recommend?', 'Which protein powder should I buy?'],
  ['How long is the Sunday long run in week 9?', 'In week 9, how long is the long run on Sunday?'],
];

const OTHER_QUESTIONS: [string, string][] = [
  ['How often should I feed my sourdough starter?', 'What flour should I feed my sourdough starter?'],
  ['What time does the Sunday long run start?', 'How long is the Sunday long run?'],
  ['How much does the coaching program cost?', 'How long does the coaching program last?'],
  ['Do you ship to Canada?', 'How long does shipping to Canada take?'],
  ['What guitar strings do you use?', 'How often do you change your guitar strings?'],
  ['How many hours do you sleep before a race?', 'What do you eat before a race?'],
  ['Is the course suitable for beginners?', 'Is there a certificate at the end of the course?'],
  ['What camera do you film with?', 'What microphone do you use?'],
  ['How long should I rest between sets?', 'How many sets should I do?'],
  ['Where can I buy your cookbook?', 'How many recipes are in your cookbook?'],
  ['How do I cancel my subscription?', 'How do I upgrade my subscription?'],
  ['What protein powder do you recommend?', 'What running shoes do you recommend?'],
  ['How long is the Sunday long run in week 9?', 'How long is the Sunday long run in week 10?'],
  ['How often should I feed my sourdough starter?', 'Hi!'],
  ['What camera do you film with?', 'Thanks, that helps a lot'],
];

describe('the paraphrase threshold of corrections, with the local encoder', () => {
  const embedder = createLocalEmbedder();
  const vectors = new Map<string, number[]>();
  const correctionOf = (question: string) => ({
    question,
    normalized: normalizeQuestion(question),
    embedding: vectors.get(question)!,
    embedding_model: LOCAL_ENCODER_ID,
  });
  const matches = ([asked, fan]: [string, string]) =>
    asksSameQuestion(fan, { vector: vectors.get(fan)!, model: LOCAL_ENCODER_ID }, correctionOf(asked));
  const similarity = ([a, b]: [string, string]) => cosine(vectors.get(a)!, vectors.get(b)!);

  beforeAll(async () => {
    const texts = [...new Set([...PARAPHRASES, ...OTHER_QUESTIONS].flat())];
    const embedded = await embedder.embedDocuments(texts);
    for (const [i, text] of texts.entries()) vectors.set(text, embedded[i]!);
  }, 120_000);

  it('never answers another question with a correction, and answers most paraphrases', () => {
    const lines = [
      ...PARAPHRASES.map(
        (p) => `  paraphrase ${similarity(p).toFixed(3)} ${matches(p) ? 'match' : 'miss '} ${p.join(' | ')}`,
      ),
      ...OTHER_QUESTIONS.map(
        (p) => `  other      ${similarity(p).toFixed(3)} ${matches(p) ? 'MATCH' : 'no   '} ${p.join(' | ')}`,
      ),
    ];
    console.log(
      `correction threshold: cosine ≥ ${CORRECTION_SIMILARITY} (local encoder)\n${lines.join('\n')}`,
    );
    expect(OTHER_QUESTIONS.filter(matches)).toEqual([]);
    const found = PARAPHRASES.filter(matches).length;
    expect(found / PARAPHRASES.length).toBeGreaterThanOrEqual(0.6);
  });

  it('sits where no lower threshold is safe and no higher one finds more', () => {
    // Pairs naming other numbers never match whatever their cosine (week 9 and week 10 score 0.99).
    const comparable = OTHER_QUESTIONS.filter(
      ([a, b]) =>
        (normalizeQuestion(a).match(/\d+/g) ?? []).join() ===
        (normalizeQuestion(b).match(/\d+/g) ?? []).join(),
    );
    const falseMatches = (t: number) => comparable.filter((p) => similarity(p) >= t).length;
    const misses = (t: number) => PARAPHRASES.filter((p) => similarity(p) < t).length;
    expect(falseMatches(CORRECTION_SIMILARITY)).toBe(0);
    for (let t = 0.8; t <= 0.9; t += 0.01) {
      if (falseMatches(t) === 0) expect(misses(t)).toBeGreaterThanOrEqual(misses(CORRECTION_SIMILARITY));
    }
    // A little lower already answers a look-alike question with the correction.
    expect(falseMatches(CORRECTION_SIMILARITY - 0.02)).toBeGreaterThan(0);
  });

  it('tells numbers apart, which the encoder does not', () => {
    const pair: [string, string] = [
      'How long is the Sunday long run in week 9?',
      'How long is the Sunday long run in week 10?',
    ];
    expect(similarity(pair)).toBeGreaterThan(0.95);
    expect(matches(pair)).toBe(false);
  });
});
