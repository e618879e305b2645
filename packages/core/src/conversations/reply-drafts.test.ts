import { randomUUID } from 'node:crypto';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedFan, seedQuestion } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAnswerContext, conversationProvider } from '../answer-context.ts';
import { creditsRepository } from '../credits.ts';
import { DomainError } from '../errors.ts';
import { discardReplyDraft, draftableQuestion, saveReplyDraft } from './reply-drafts.ts';
import { sendToFan } from './send-to-fan.ts';
import { storeAiAnswer } from './store-ai-answer.ts';

// AI-drafted replies (record 0060), in core where the rules are: which question may be drafted for
// and by whom, the first draft kept, one credit when a reply uses it and nothing when discarded.

async function refusal(call: Promise<unknown>): Promise<DomainError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe('reply drafts (core)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
  });
  afterAll(async () => {
    await close?.();
  });
  const db = () => handle.db;
  const balanceOf = async (creatorId: string) =>
    (await creditsRepository(db()).usage(creatorId)).creditsRemaining;

  /** A creator (Online: the creator answers) with a fan who asked one question after an earlier exchange. */
  const seed = async (credits = 50) => {
    const creator = await seedCreator(db(), { credits, online: true });
    const fanKey = `mobile_fan_${randomUUID()}`;
    const fan = await seedFan(db(), creator.creatorId, { fanKey });
    const questionId = await seedQuestion(db(), fan, 'Can I freeze the dough?');
    return { creator, fan, fanKey, questionId };
  };
  const draft = (creatorId: string, questionId: string, text = 'Yes, for up to a month.') =>
    saveReplyDraft(db(), {
      creatorId,
      questionId,
      text,
      sources: [
        { title: 'FAQ', source: 'faq.pdf', kind: 'pdf', page: 2, itemId: 'x', passage: 'Freeze it.' },
      ],
      covered: true,
      model: 'gpt-4o-mini',
    });

  it('a draft is for the creator’s own pending fan question, with the conversation before it', async () => {
    const { creator, fan, questionId } = await seed();
    const ready = await draftableQuestion(db(), creator.creatorId, questionId);
    expect(ready).toMatchObject({ id: questionId, body: 'Can I freeze the dough?', draft: null });
    const later = await seedQuestion(db(), fan, 'And thaw it how?');
    const laterQuestion = await draftableQuestion(db(), creator.creatorId, later);
    expect(laterQuestion.fanId).toBe(fan.id);
    const context = await buildAnswerContext(
      db(),
      {
        creatorId: creator.creatorId,
        creatorName: 'C',
        question: laterQuestion.body,
        questionId: later,
        fanId: laterQuestion.fanId,
      },
      [conversationProvider()],
    );
    expect(context.history).toEqual([{ from: 'fan', text: 'Can I freeze the dough?' }]);

    const other = await seedCreator(db());
    const notTheirs = await refusal(draftableQuestion(db(), other.creatorId, questionId));
    expect([notTheirs.reason, notTheirs.code]).toEqual(['not_found', 'not_found']);
    expect((await refusal(draft(other.creatorId, questionId))).reason).toBe('not_found');
  });

  it('refuses an answer that is not a fan question, an answered question, and a creator without a credit', async () => {
    const offline = await seedCreator(db());
    const fan = await seedFan(db(), offline.creatorId);
    const asked = await seedQuestion(db(), fan, 'Hours?');
    const answered = await storeAiAnswer(db(), {
      questionId: asked,
      creatorId: offline.creatorId,
      body: '9 to 5.',
      sources: [],
      gap: false,
      now: new Date(),
    });
    const notFan = await refusal(draftableQuestion(db(), offline.creatorId, answered.replyId!));
    expect([notFan.reason, notFan.code]).toEqual(['invalid', 'not_a_fan_message']);
    const done = await refusal(draftableQuestion(db(), offline.creatorId, asked));
    expect([done.reason, done.code]).toEqual(['conflict', 'already_answered']);
    expect((await refusal(draft(offline.creatorId, asked))).code).toBe('already_answered');

    const { creator, questionId } = await seed(0);
    const broke = await refusal(draftableQuestion(db(), creator.creatorId, questionId));
    expect([broke.reason, broke.code]).toEqual(['payment_required', 'no_credits']);
  });

  it('the first draft is kept and read back, without the passages', async () => {
    const { creator, questionId } = await seed();
    const first = await draft(creator.creatorId, questionId);
    const second = await draft(creator.creatorId, questionId, 'Another text.');
    expect(second).toEqual(first);
    expect(first).toMatchObject({ text: 'Yes, for up to a month.', status: 'open', covered: true });
    expect(first.sources).toEqual([{ title: 'FAQ', source: 'faq.pdf', kind: 'pdf', page: 2 }]);
    expect((await draftableQuestion(db(), creator.creatorId, questionId)).draft).toEqual(first);
  });

  it('a reply that uses the draft costs one credit, once; a discarded draft costs nothing', async () => {
    const { creator, fanKey, questionId } = await seed();
    await draft(creator.creatorId, questionId);
    const before = await balanceOf(creator.creatorId);
    const sent = await sendToFan(
      { db: db() },
      { creatorId: creator.creatorId, to: fanKey, text: 'Yes!', draftFor: questionId },
    );
    expect(sent.answeredMessageId).toBe(questionId);
    expect(await balanceOf(creator.creatorId)).toBe(before - 1);
    const used = await refusal(discardReplyDraft(db(), { creatorId: creator.creatorId, questionId }));
    expect([used.reason, used.code]).toEqual(['conflict', 'draft_sent']);
    // Naming the sent draft again charges nothing more.
    await sendToFan(
      { db: db() },
      { creatorId: creator.creatorId, to: fanKey, text: 'Also…', draftFor: questionId },
    );
    expect(await balanceOf(creator.creatorId)).toBe(before - 1);

    const second = await seed();
    await draft(second.creator.creatorId, second.questionId);
    const kept = await balanceOf(second.creator.creatorId);
    expect(
      (await discardReplyDraft(db(), { creatorId: second.creator.creatorId, questionId: second.questionId }))
        .status,
    ).toBe('discarded');
    await sendToFan(
      { db: db() },
      {
        creatorId: second.creator.creatorId,
        to: second.fanKey,
        text: 'My own words.',
        draftFor: second.questionId,
      },
    );
    expect(await balanceOf(second.creator.creatorId)).toBe(kept);
    const none = await seed();
    const missing = await refusal(
      discardReplyDraft(db(), { creatorId: none.creator.creatorId, questionId: none.questionId }),
    );
    expect(missing.reason).toBe('not_found');
  });
});
