import { CREDITS_PER_AI_ANSWER, type ReplyDraft, type StoredSource } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { type Kysely, sql, type Transaction } from 'kysely';
import { creditsCover } from '../answer-policy.ts';
import { writeLedger } from '../credits.ts';
import type { Db } from '../db.ts';
import { DomainError } from '../errors.ts';
import { now } from './ports.ts';

// AI-drafted replies (docs/decisions/0060-ai-drafted-replies.md): the AI drafts the creator's reply to
// a pending fan question from the creator's content; the creator edits and sends it as their own,
// or discards it. A draft never reaches a fan by itself: it lives in reply_drafts, never in messages.
// It costs one credit when a reply uses it (an `ai_draft` ledger row), nothing when discarded.

export const NO_CREDITS_FOR_DRAFT =
  'No credits left: an AI draft costs one credit when you send it. Add credits in Billing, or write your reply yourself.';

interface DraftRow {
  question_id: string;
  body: string;
  sources: StoredSource[] | string;
  covered: boolean;
  model: string | null;
  status: 'open' | 'sent' | 'discarded';
}

const DRAFT_COLUMNS = ['question_id', 'body', 'sources', 'covered', 'model', 'status'] as const;

/** A stored draft as the creator reads it: the sources without the passages the fan-side viewer keeps. */
function toDraft(row: DraftRow): ReplyDraft {
  const sources = (typeof row.sources === 'string' ? JSON.parse(row.sources) : row.sources) as StoredSource[];
  return {
    questionId: String(row.question_id),
    text: row.body,
    sources: sources.map(({ itemId: _item, passage: _passage, ...source }) => source),
    covered: row.covered,
    model: row.model,
    status: row.status,
  };
}

/** The pending question a draft is written for, with what the AI needs to write it. */
export interface DraftableQuestion {
  id: string;
  creatorId: string;
  /** The fan who asked (their conversation and memory go into the draft's answer context). */
  fanId: string | null;
  body: string;
  /** The draft already written for it (open, sent or discarded): it is read back, never rewritten. */
  draft: ReplyDraft | null;
}

/**
 * The creator's pending question `questionId`, ready to be drafted for. Refused: another creator's
 * or an unknown message (404), a message that is not a fan's question (400), an answered question
 * (409), and, when no draft exists yet, a creator without a credit to pay for one (402).
 */
export async function draftableQuestion(
  db: Kysely<Database>,
  creatorId: string,
  questionId: string,
): Promise<DraftableQuestion> {
  const question = await db
    .selectFrom('messages')
    .select(['id', 'creator_id', 'fan_id', 'sender', 'status', 'body'])
    .where('id', '=', questionId)
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  if (!question) throw new DomainError('not_found', 'not_found', 'No such message.');
  if (question.sender !== 'fan') {
    throw new DomainError('invalid', 'not_a_fan_message', 'Only a fan message can be answered.');
  }
  const existing = await db
    .selectFrom('reply_drafts')
    .select(DRAFT_COLUMNS)
    .where('question_id', '=', questionId)
    .executeTakeFirst();
  if (question.status !== 'pending') {
    throw new DomainError('conflict', 'already_answered', 'This question has already been answered.');
  }
  if (!existing) {
    const totals = await db
      .selectFrom('credit_totals')
      .select('balance')
      .where('creator_id', '=', creatorId)
      .executeTakeFirst();
    if (!creditsCover(Number(totals?.balance ?? 0))) {
      throw new DomainError('payment_required', 'no_credits', NO_CREDITS_FOR_DRAFT);
    }
  }
  return {
    id: String(question.id),
    creatorId,
    fanId: question.fan_id,
    body: question.body,
    draft: existing ? toDraft(existing) : null,
  };
}

/**
 * Keeps the draft written for a question. The first one stored wins (two tabs drafting at once
 * both read back the same draft); a question answered meanwhile keeps none (409).
 */
export async function saveReplyDraft(
  db: Kysely<Database>,
  input: {
    creatorId: string;
    questionId: string;
    text: string;
    sources: StoredSource[];
    covered: boolean;
    model: string | null;
  },
): Promise<ReplyDraft> {
  return db.transaction().execute(async (trx) => {
    const question = await trx
      .selectFrom('messages')
      .select('status')
      .where('id', '=', input.questionId)
      .where('creator_id', '=', input.creatorId)
      .forShare()
      .executeTakeFirst();
    if (!question) throw new DomainError('not_found', 'not_found', 'No such message.');
    if (question.status !== 'pending') {
      throw new DomainError('conflict', 'already_answered', 'This question has already been answered.');
    }
    await trx
      .insertInto('reply_drafts')
      .values({
        question_id: input.questionId,
        creator_id: input.creatorId,
        body: input.text,
        sources: JSON.stringify(input.sources),
        covered: input.covered,
        model: input.model,
      })
      .onConflict((oc) => oc.column('question_id').doNothing())
      .execute();
    const row = await trx
      .selectFrom('reply_drafts')
      .select(DRAFT_COLUMNS)
      .where('question_id', '=', input.questionId)
      .executeTakeFirstOrThrow();
    return toDraft(row);
  });
}

/** The creator sets the draft aside: it costs nothing and is not offered again for that question. */
export async function discardReplyDraft(
  db: Kysely<Database>,
  input: { creatorId: string; questionId: string; clock?: () => Date },
): Promise<ReplyDraft> {
  const at = now({ db, ...(input.clock ? { clock: input.clock } : {}) });
  const row = await db
    .updateTable('reply_drafts')
    .set({ status: 'discarded', closed_at: at })
    .where('question_id', '=', input.questionId)
    .where('creator_id', '=', input.creatorId)
    .where('status', '=', 'open')
    .returning(DRAFT_COLUMNS)
    .executeTakeFirst();
  if (row) return toDraft(row);
  const current = await db
    .selectFrom('reply_drafts')
    .select(DRAFT_COLUMNS)
    .where('question_id', '=', input.questionId)
    .where('creator_id', '=', input.creatorId)
    .executeTakeFirst();
  if (!current) throw new DomainError('not_found', 'not_found', 'There is no draft for this question.');
  if (current.status === 'sent') {
    throw new DomainError('conflict', 'draft_sent', 'This draft was already sent; it cannot be discarded.');
  }
  return toDraft(current);
}

/**
 * A reply written from the open draft of `questionId` is being stored (in the caller's
 * transaction): the draft is marked sent and charged one credit, once. A draft already sent,
 * discarded or never written charges nothing, and the reply is the creator's own either way.
 */
export async function useReplyDraft(
  trx: Transaction<Database>,
  input: { creatorId: string; questionId: string; at: Date },
): Promise<boolean> {
  const used = await trx
    .updateTable('reply_drafts')
    .set({ status: 'sent', closed_at: input.at })
    .where('question_id', '=', input.questionId)
    .where('creator_id', '=', input.creatorId)
    .where('status', '=', 'open')
    .where('covered', '=', true)
    .returning('question_id')
    .executeTakeFirst();
  if (!used) return false;
  await chargeDraft(trx, input.creatorId, input.questionId);
  return true;
}

async function chargeDraft(db: Db, creatorId: string, questionId: string): Promise<void> {
  await writeLedger(db, creatorId, () =>
    db
      .insertInto('credit_ledger')
      .values({
        creator_id: creatorId,
        delta: -CREDITS_PER_AI_ANSWER,
        reason: 'ai_draft',
        message_id: questionId,
      })
      .onConflict((oc) => oc.column('message_id').where(sql<boolean>`reason = 'ai_draft'`).doNothing())
      .execute(),
  );
}
