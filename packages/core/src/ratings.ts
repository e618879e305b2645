import { AI_SENDER, RATING_COMMENT_MAX_LENGTH } from '@fanpilot/contracts';
import { sql } from 'kysely';
import { findCitingMessage } from './citations.ts';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
import { type FanRequester, requireFanAccess } from './rights.ts';

// Fans rate the AI's answers (docs/decisions/0037-fans-rate-answers.md): thumbs up or down with an
// optional comment, one rating per answer (the fan may change it), by the fan whose conversation it is.

export type Rating = 'up' | 'down';

const notFound = () => new DomainError('not_found', 'not_found', 'This answer does not exist.');

/**
 * Rates the AI answer `messageId` in the conversation of the fan row `fanRowId` (the caller has
 * checked the fan is the browser's own). Another fan's answer, the creator's own reply or a fan
 * message are not found. A second rating replaces the first; `rating` null takes it back.
 */
export async function rateAnswer(
  db: Db,
  input: { fanRowId: string; messageId: string; rating: Rating | null; comment?: string | null },
): Promise<{ rating: Rating | null; comment: string | null }> {
  if (!/^[1-9][0-9]{0,18}$/.test(input.messageId)) throw notFound();
  const comment = input.rating ? (input.comment ?? '').trim() || null : null;
  if (comment && comment.length > RATING_COMMENT_MAX_LENGTH) {
    throw new DomainError(
      'invalid',
      'invalid_input',
      `The comment is too long (at most ${RATING_COMMENT_MAX_LENGTH} characters).`,
    );
  }
  const updated = await db
    .updateTable('messages')
    .set({
      fan_rating: input.rating,
      fan_rating_comment: comment,
      fan_rated_at: input.rating ? new Date() : null,
    })
    .where('id', '=', input.messageId)
    .where('fan_id', '=', input.fanRowId)
    .where('sender', '=', AI_SENDER)
    .returning(['fan_rating', 'fan_rating_comment'])
    .executeTakeFirst();
  if (!updated) throw notFound();
  return { rating: updated.fan_rating, comment: updated.fan_rating_comment };
}

export interface PoorAnswer {
  /** The AI answer. */
  answerId: string;
  answer: string;
  /** The fan question it answered. */
  questionId: string | null;
  question: string | null;
  comment: string | null;
  ratedAt: Date;
  fanKey: string | null;
  fanName: string | null;
  /** The creator has since written a correction for this answer. */
  corrected: boolean;
}

/** The creator's AI answers fans rated down, newest rating first (at most `limit`). */
export async function poorlyRatedAnswers(db: Db, creatorId: string, limit = 50): Promise<PoorAnswer[]> {
  const rows = await db
    .selectFrom('messages as m')
    .leftJoin('messages as q', 'q.id', 'm.reply_to')
    .leftJoin('fans as f', 'f.id', 'm.fan_id')
    .select([
      'm.id',
      'm.body',
      'm.fan_rating_comment',
      'm.fan_rated_at',
      'q.id as question_id',
      'q.body as question',
      'f.fan_key',
      'f.name',
      sql<boolean>`exists (select 1 from answer_corrections c
        where c.creator_id = m.creator_id and c.corrected_message_id = m.id)`.as('corrected'),
    ])
    .where('m.creator_id', '=', creatorId)
    .where('m.fan_rating', '=', 'down')
    .orderBy('m.fan_rated_at', 'desc')
    .limit(Math.min(Math.max(limit, 1), 200))
    .execute();
  return rows.map((r) => ({
    answerId: String(r.id),
    answer: r.body,
    questionId: r.question_id === null ? null : String(r.question_id),
    question: r.question,
    comment: r.fan_rating_comment,
    ratedAt: new Date(r.fan_rated_at as Date | string),
    fanKey: r.fan_key,
    fanName: r.name,
    corrected: Boolean(r.corrected),
  }));
}

/**
 * The fan's rating of an AI answer in their conversation with `fanKey`: only the browser holding
 * the conversation rates its answers (the creator reads them, another browser is refused).
 */
export async function rateAnswerAsFan(
  db: Db,
  who: FanRequester,
  input: { fanKey: string; messageId: string; rating: Rating | null; comment?: string | null },
): Promise<{ rating: Rating | null; comment: string | null }> {
  const message = await findCitingMessage(db, input.fanKey, input.messageId);
  if (!message) throw new DomainError('not_found', 'not_found', 'This answer was not found.');
  requireFanAccess(who, message.fan, 'write');
  return rateAnswer(db, {
    fanRowId: message.fan.id,
    messageId: input.messageId,
    rating: input.rating,
    comment: input.comment ?? null,
  });
}
