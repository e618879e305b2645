import { CORRECTION_ANSWER_MAX_LENGTH, CORRECTION_QUESTION_MAX_LENGTH } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedFan, seedQuestion } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeAiAnswer } from './conversations/store-ai-answer.ts';
import {
  answerBeingCorrected,
  deleteCorrection,
  listCorrections,
  matchCorrection,
  type NewCorrection,
  saveCorrection,
} from './corrections.ts';
import { DomainError } from './errors.ts';

// The creator's corrections, in core where their rules are: whose answer may be corrected, what a
// correction must hold, one correction per question, and which correction answers a new question.

async function refusal(call: Promise<unknown>): Promise<DomainError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

const noEmbedder = async () => null;

describe('corrections (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  /** A creator whose AI answered one fan's question: the question's and the answer's ids. */
  const answered = async (question = 'When do you open on Sunday?') => {
    const creator = await seedCreator(db());
    const fan = await seedFan(db(), creator.creatorId);
    const questionId = await seedQuestion(db(), fan, question);
    const stored = await storeAiAnswer(db(), {
      questionId,
      creatorId: creator.creatorId,
      body: 'At 8.',
      sources: [],
      gap: false,
      now: new Date(),
    });
    expect(stored.outcome).toBe('answered');
    return { creator, fan, questionId, answerId: stored.replyId! };
  };
  const correction = (creatorId: string, over: Partial<NewCorrection> = {}): NewCorrection => ({
    creatorId,
    question: 'When do you open on Sunday?',
    answer: 'At 10 on Sundays.',
    embedding: null,
    embeddingModel: null,
    ...over,
  });

  it('saves the right answer, tied to the AI answer it corrects (named by the answer or by its question)', async () => {
    const { creator, fan, questionId, answerId } = await answered();
    expect(await answerBeingCorrected(db(), creator.creatorId, answerId)).toEqual({
      answerId,
      question: 'When do you open on Sunday?',
      fanId: fan.id,
    });
    expect((await answerBeingCorrected(db(), creator.creatorId, questionId)).answerId).toBe(answerId);
    const saved = await saveCorrection(db(), correction(creator.creatorId, { messageId: questionId }));
    expect(saved).toMatchObject({
      question: 'When do you open on Sunday?',
      answer: 'At 10 on Sundays.',
      correctedMessageId: answerId,
    });
    expect((await listCorrections(db(), creator.creatorId)).map((c) => c.id)).toEqual([saved.id]);
  });

  it('one correction per question: the same question in other words replaces it', async () => {
    const { creatorId } = await seedCreator(db());
    const first = await saveCorrection(db(), correction(creatorId));
    const second = await saveCorrection(
      db(),
      correction(creatorId, { question: '  when DO you open on sunday!! ', answer: 'At 11.' }),
    );
    expect(second.id).toBe(first.id);
    const list = await listCorrections(db(), creatorId);
    expect(list.map((c) => [c.question, c.answer])).toEqual([['when DO you open on sunday!!', 'At 11.']]);
  });

  it('refuses an empty, a wordless or a too long question or answer (invalid_input), and stores nothing', async () => {
    const { creatorId } = await seedCreator(db());
    for (const over of [
      { question: '   ' },
      { answer: '' },
      { question: '?!…' },
      { question: 'q'.repeat(CORRECTION_QUESTION_MAX_LENGTH + 1) },
      { answer: 'a'.repeat(CORRECTION_ANSWER_MAX_LENGTH + 1) },
    ]) {
      const err = await refusal(saveCorrection(db(), correction(creatorId, over)));
      expect([err.reason, err.code]).toEqual(['invalid', 'invalid_input']);
    }
    expect(await listCorrections(db(), creatorId)).toEqual([]);
  });

  it('another creator’s answer cannot be corrected, nor a fan question the AI did not answer', async () => {
    const { creator, answerId } = await answered();
    const other = await seedCreator(db());
    for (const id of [answerId, 'not-a-number', '0']) {
      const err = await refusal(saveCorrection(db(), correction(other.creatorId, { messageId: id })));
      expect([err.reason, err.code]).toEqual(['not_found', 'not_found']);
    }
    const fan = await seedFan(db(), creator.creatorId);
    const waiting = await seedQuestion(db(), fan, 'Still waiting?');
    expect((await refusal(answerBeingCorrected(db(), creator.creatorId, waiting))).reason).toBe('not_found');
    expect(await listCorrections(db(), other.creatorId)).toEqual([]);
  });

  it('a creator deletes their own correction; another creator’s is not found and stays', async () => {
    const { creatorId } = await seedCreator(db());
    const other = await seedCreator(db());
    const saved = await saveCorrection(db(), correction(creatorId));
    expect((await refusal(deleteCorrection(db(), other.creatorId, saved.id))).reason).toBe('not_found');
    expect((await refusal(deleteCorrection(db(), creatorId, 'nope'))).reason).toBe('not_found');
    expect(await listCorrections(db(), creatorId)).toHaveLength(1);
    await deleteCorrection(db(), creatorId, saved.id);
    expect(await listCorrections(db(), creatorId)).toEqual([]);
    expect((await refusal(deleteCorrection(db(), creatorId, saved.id))).reason).toBe('not_found');
  });

  it('matches a new question by its words, by meaning with the same embedder only, and never across creators', async () => {
    const { creatorId } = await seedCreator(db());
    const other = await seedCreator(db());
    await saveCorrection(db(), correction(creatorId));
    expect(await matchCorrection(db(), creatorId, 'when do you OPEN on Sunday', noEmbedder)).toMatchObject({
      answer: 'At 10 on Sundays.',
      similarity: 1,
    });
    // Without an embedder, by content words: the same words in another order match, other words do not.
    expect((await matchCorrection(db(), creatorId, 'Sunday opening?', noEmbedder))?.answer).toBe(
      'At 10 on Sundays.',
    );
    expect(await matchCorrection(db(), creatorId, 'Do you deliver on Sunday?', noEmbedder)).toBeUndefined();
    expect(
      await matchCorrection(db(), other.creatorId, 'When do you open on Sunday?', noEmbedder),
    ).toBeUndefined();

    // By meaning: a correction embedded by model m matches a question embedded by m, not by another model.
    await saveCorrection(
      db(),
      correction(creatorId, {
        question: 'Do you bake gluten-free bread?',
        answer: 'Yes, on Fridays.',
        embedding: [1, 0, 0],
        embeddingModel: 'm',
      }),
    );
    const byMeaning = await matchCorrection(db(), creatorId, 'Anything for coeliacs?', async () => ({
      vector: [0.99, 0.05, 0],
      model: 'm',
    }));
    expect(byMeaning?.answer).toBe('Yes, on Fridays.');
    expect(
      await matchCorrection(db(), creatorId, 'Anything for coeliacs?', async () => ({
        vector: [0.99, 0.05, 0],
        model: 'another',
      })),
    ).toBeUndefined();
  });
});
