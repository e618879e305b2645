import type { DbHandle } from '@fanpilot/db';
import { openTestDb, type SeededFan, seedCreator, seedFan, seedQuestion } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeAiAnswer } from './conversations/store-ai-answer.ts';
import { correctAnswer, sendCorrection, wrongAnswers } from './correction-fans.ts';
import { saveCorrection } from './corrections.ts';
import { DomainError } from './errors.ts';
import { inboxRepository } from './inbox.ts';

// A correction reaches every fan who got the wrong answer (record 0056), in core where the rule is:
// which fans got it, each sent it once (again when the creator changes it), never another
// creator's fans or correction.

async function refusal(call: Promise<unknown>): Promise<DomainError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

const noEmbedder = async () => null;

describe('correction fans (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;

  /** The fan asks, and the AI answers wrongly; the AI answer's id. */
  const answeredWrongly = async (fan: SeededFan, question: string) => {
    const questionId = await seedQuestion(db(), fan, question);
    const stored = await storeAiAnswer(db(), {
      questionId,
      creatorId: fan.creatorId,
      body: 'At 8.',
      sources: [],
      gap: false,
      now: new Date(),
    });
    expect(stored.outcome).toBe('answered');
    return stored.replyId!;
  };
  /** What the creator said to the fan (their messages), oldest first. */
  const creatorSaid = async (fan: SeededFan) =>
    (await inboxRepository(db()).conversationPage(fan.id, { limit: 50 })).messages
      .filter((m) => m.sender === 'creator')
      .map((m) => m.body);

  it('sends the correction to each fan whose question it answers, once, and to no one else', async () => {
    const { creatorId } = await seedCreator(db());
    const ada = await seedFan(db(), creatorId, { name: 'Ada' });
    const bob = await seedFan(db(), creatorId, { name: 'Bob' });
    const cy = await seedFan(db(), creatorId, { name: 'Cy' });
    const adaAnswer = await answeredWrongly(ada, 'When do you open on Sunday?');
    await answeredWrongly(bob, 'when do you OPEN on sunday');
    await answeredWrongly(cy, 'Do you deliver to Leeds?');

    const { correction, sent } = await correctAnswer(db(), {
      creatorId,
      question: 'When do you open on Sunday?',
      answer: 'At 10 on Sundays.',
      embedding: null,
      embeddingModel: null,
      messageId: adaAnswer,
      sendToFan: true,
    });
    expect(sent).toHaveLength(2);
    expect(await creatorSaid(ada)).toEqual(['At 10 on Sundays.']);
    expect(await creatorSaid(bob)).toEqual(['At 10 on Sundays.']);
    expect(await creatorSaid(cy)).toEqual([]);
    const listed = await wrongAnswers(db(), creatorId, correction.id, noEmbedder);
    expect(listed.map((w) => [w.fanName, w.sent]).sort()).toEqual([
      ['Ada', true],
      ['Bob', true],
    ]);
    // Sent again: nobody is messaged twice.
    expect(await sendCorrection(db(), creatorId, correction.id, noEmbedder)).toEqual([]);
    expect(await creatorSaid(ada)).toHaveLength(1);
  });

  it('a changed correction is sent anew, also to a fan answered wrongly since; a later answer is not wrong', async () => {
    const { creatorId } = await seedCreator(db());
    const ada = await seedFan(db(), creatorId, { name: 'Ada' });
    await answeredWrongly(ada, 'Is parking free?');
    const first = await saveCorrection(db(), {
      creatorId,
      question: 'Is parking free?',
      answer: 'Yes, behind the shop.',
      embedding: null,
      embeddingModel: null,
    });
    expect(await sendCorrection(db(), creatorId, first.id, noEmbedder)).toHaveLength(1);
    // Answered after the correction was written: not (yet) a wrong answer it corrects.
    const bob = await seedFan(db(), creatorId, { name: 'Bob' });
    await answeredWrongly(bob, 'Is parking free?');
    expect((await wrongAnswers(db(), creatorId, first.id, noEmbedder)).map((w) => w.fanName)).toEqual([
      'Ada',
    ]);
    // The creator changes the answer: both fans are sent the new one.
    const changed = await saveCorrection(db(), {
      creatorId,
      question: 'Is parking free?',
      answer: 'Only on Sundays.',
      embedding: null,
      embeddingModel: null,
    });
    expect(changed.id).toBe(first.id);
    expect(await sendCorrection(db(), creatorId, first.id, noEmbedder)).toHaveLength(2);
    expect(await creatorSaid(ada)).toEqual(['Yes, behind the shop.', 'Only on Sundays.']);
    expect(await creatorSaid(bob)).toEqual(['Only on Sundays.']);
  });

  it('another creator’s correction is not found, and their fans are never listed or messaged', async () => {
    const owner = await seedCreator(db());
    const other = await seedCreator(db());
    const otherFan = await seedFan(db(), other.creatorId);
    await answeredWrongly(otherFan, 'When do you open on Sunday?');
    const correction = await saveCorrection(db(), {
      creatorId: owner.creatorId,
      question: 'When do you open on Sunday?',
      answer: 'At 10.',
      embedding: null,
      embeddingModel: null,
    });
    expect(await wrongAnswers(db(), owner.creatorId, correction.id, noEmbedder)).toEqual([]);
    expect(await sendCorrection(db(), owner.creatorId, correction.id, noEmbedder)).toEqual([]);
    expect(await creatorSaid(otherFan)).toEqual([]);
    // Each call made only when awaited: a refusal never waits unhandled while another is checked.
    for (const call of [
      () => wrongAnswers(db(), other.creatorId, correction.id, noEmbedder),
      () => sendCorrection(db(), other.creatorId, correction.id, noEmbedder),
      () => wrongAnswers(db(), owner.creatorId, 'not-a-uuid', noEmbedder),
    ]) {
      const err = await refusal(call());
      expect([err.reason, err.code]).toEqual(['not_found', 'not_found']);
    }
  });
});
