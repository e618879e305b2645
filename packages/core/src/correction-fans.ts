import { AI_SENDER } from '@fanpilot/contracts';
import type { AnswerCorrectionRow } from '@fanpilot/db';
import { sendToFan } from './conversations/send-to-fan.ts';
import {
  asksSameQuestion,
  type Correction,
  type NewCorrection,
  normalizeQuestion,
  saveCorrection,
} from './corrections.ts';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
import { closeKnowledgeGaps, GAP_QUESTIONS_READ, GAP_WINDOW_DAYS } from './knowledge-gaps.ts';

// A correction reaches every fan who got the wrong answer
// (docs/decisions/0056-a-correction-reaches-every-fan-who-got-the-wrong-answer.md): the fans whose
// question the AI answered before the correction was written (or last changed), when that question
// asks what the correction answers by the rule an answer uses (the same question, a paraphrase by
// meaning, or by words), and the fan whose answer was corrected. Each is sent it once.

/** How many of the creator's latest AI answers are looked through for the ones a correction corrects. */
export const CORRECTION_LOOKBACK_ANSWERS = 1_000;
/** At most this many distinct questions (newest first) are embedded to be compared by meaning. */
export const CORRECTION_EMBEDDED_QUESTIONS = 300;

/** Embeds fan questions (the configured embedder), or null: none configured, or it failed. */
export type EmbedQuestions = (texts: string[]) => Promise<{ vectors: number[][]; model: string } | null>;

/** An AI answer a correction corrects: the newest one per fan. */
export interface WrongAnswer {
  answerId: string;
  questionId: string;
  question: string;
  answeredAt: Date;
  fanRowId: string;
  fanKey: string;
  fanName: string | null;
  /** The fan was already sent the correction as it reads now. */
  sent: boolean;
}

const notFound = () => new DomainError('not_found', 'not_found', 'This correction does not exist.');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function correctionOf(db: Db, creatorId: string, id: string): Promise<AnswerCorrectionRow> {
  if (!UUID.test(id)) throw notFound();
  const row = await db
    .selectFrom('answer_corrections')
    .selectAll()
    .where('id', '=', id)
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * The AI answers the creator's correction `correctionId` corrects, newest first, one per fan (see
 * the top of this file). `embed` is asked only when the correction has an embedding, for the
 * questions its words and text did not already match.
 */
export async function wrongAnswers(
  db: Db,
  creatorId: string,
  correctionId: string,
  embed: EmbedQuestions,
): Promise<WrongAnswer[]> {
  const correction = await correctionOf(db, creatorId, correctionId);
  const changedAt = new Date(correction.updated_at);
  const rows = await db
    .selectFrom('messages as a')
    .innerJoin('messages as q', 'q.id', 'a.reply_to')
    .innerJoin('fans as f', 'f.id', 'a.fan_id')
    .leftJoin('answer_correction_sends as s', (join) =>
      join.on('s.correction_id', '=', correction.id).onRef('s.fan_id', '=', 'a.fan_id'),
    )
    .select([
      'a.id as answerId',
      'a.created_at as answeredAt',
      'q.id as questionId',
      'q.body as question',
      'f.id as fanRowId',
      'f.fan_key as fanKey',
      'f.name as fanName',
      's.sent_at as sentAt',
    ])
    .where('a.creator_id', '=', creatorId)
    .where('a.sender', '=', AI_SENDER)
    .where('q.sender', '=', 'fan')
    .where('a.created_at', '<=', changedAt)
    .orderBy('a.id', 'desc')
    .limit(CORRECTION_LOOKBACK_ANSWERS)
    .execute();
  const corrected = correction.corrected_message_id;
  const matched = await questionsAnswered(
    correction,
    rows.map((r) => r.question),
    embed,
  );
  const fans = new Map<string, WrongAnswer>();
  for (const row of rows) {
    if (fans.has(row.fanRowId)) continue;
    if (String(row.answerId) !== corrected && !matched.has(normalizeQuestion(row.question))) continue;
    fans.set(row.fanRowId, {
      answerId: String(row.answerId),
      questionId: String(row.questionId),
      question: row.question,
      answeredAt: new Date(row.answeredAt),
      fanRowId: row.fanRowId,
      fanKey: row.fanKey,
      fanName: row.fanName,
      sent: row.sentAt !== null && new Date(row.sentAt) >= changedAt,
    });
  }
  return [...fans.values()];
}

/**
 * Which of `texts` (fan questions, newest first) ask what `correction` answers, by the rule an answer
 * uses (asksSameQuestion), as their normalised questions. Each distinct question is compared once: by
 * meaning when the correction has an embedding (the newest CORRECTION_EMBEDDED_QUESTIONS of them, in
 * one batch), else, or when embedding fails, by words.
 */
export async function questionsAnswered(
  correction: AnswerCorrectionRow,
  texts: string[],
  embed: EmbedQuestions,
): Promise<Set<string>> {
  const matched = new Set<string>();
  const questions = new Map<string, string>();
  for (const text of texts) {
    const key = normalizeQuestion(text);
    if (key && !questions.has(key)) questions.set(key, text);
  }
  const byMeaning: string[] = [];
  for (const [key, text] of questions) {
    if (key === correction.normalized) matched.add(key);
    else if (correction.embedding && byMeaning.length < CORRECTION_EMBEDDED_QUESTIONS) byMeaning.push(key);
    else if (asksSameQuestion(text, null, correction)) matched.add(key);
  }
  if (byMeaning.length > 0) {
    const batch = byMeaning.map((key) => questions.get(key)!);
    const embedded = await embed(batch).catch(() => null);
    const usable = embedded && embedded.vectors.length === batch.length ? embedded : null;
    for (const [i, text] of batch.entries()) {
      const vector = usable ? { vector: usable.vectors[i]!, model: usable.model } : null;
      if (asksSameQuestion(text, vector, correction)) matched.add(byMeaning[i]!);
    }
  }
  return matched;
}

/**
 * Sends the correction `correctionId` to every fan who got a wrong answer to it and has not been
 * sent it yet (as it reads now): a creator message in each conversation, answering the fan's
 * waiting question if any (pushed like any creator message). Returns the messages sent.
 */
export async function sendCorrection(
  db: Db,
  creatorId: string,
  correctionId: string,
  embed: EmbedQuestions,
): Promise<string[]> {
  const correction = await correctionOf(db, creatorId, correctionId);
  const changedAt = new Date(correction.updated_at);
  const sent: string[] = [];
  for (const wrong of await wrongAnswers(db, creatorId, correctionId, embed)) {
    if (wrong.sent) continue;
    // Claimed first, so two sends at once never message a fan twice.
    const claimed = await db
      .insertInto('answer_correction_sends')
      .values({ correction_id: correction.id, fan_id: wrong.fanRowId, sent_at: new Date() })
      .onConflict((oc) =>
        oc
          .columns(['correction_id', 'fan_id'])
          .doUpdateSet({ sent_at: new Date(), message_id: null })
          .where('answer_correction_sends.sent_at', '<', changedAt),
      )
      .returning('fan_id')
      .executeTakeFirst();
    if (!claimed) continue;
    try {
      const { messageId } = await sendToFan({ db }, { creatorId, to: wrong.fanKey, text: correction.answer });
      await db
        .updateTable('answer_correction_sends')
        .set({ message_id: messageId })
        .where('correction_id', '=', correction.id)
        .where('fan_id', '=', wrong.fanRowId)
        .execute();
      sent.push(messageId);
    } catch (error) {
      await db
        .deleteFrom('answer_correction_sends')
        .where('correction_id', '=', correction.id)
        .where('fan_id', '=', wrong.fanRowId)
        .execute();
      throw error;
    }
  }
  return sent;
}

/**
 * The creator corrects an AI answer: saves the correction and, with `sendToFan`, sends it to every
 * fan who got a wrong answer to that question or a paraphrase (correction-fans.ts), the fan of
 * `messageId` among them. Returns the correction and the messages sent.
 */
export async function correctAnswer(
  db: Db,
  input: NewCorrection & { sendToFan?: boolean | undefined; embedQuestions?: EmbedQuestions | undefined },
): Promise<{ correction: Correction; sent: string[]; gapsClosed: number }> {
  const correction = await saveCorrection(db, input);
  const embed = input.embedQuestions ?? (async () => null);
  const gapsClosed = await closeGapsAnsweredBy(db, input.creatorId, correction.id, embed);
  const sent = input.sendToFan ? await sendCorrection(db, input.creatorId, correction.id, embed) : [];
  return { correction, sent, gapsClosed };
}

/**
 * Closes the creator's open knowledge gaps that the correction `correctionId` answers: the question
 * of the answer it corrects, and every open gap asking the same thing or a paraphrase (the rule an
 * answer uses, questionsAnswered). They leave the "Questions your content doesn't answer" card, as
 * when answered from it. Returns how many were closed.
 */
export async function closeGapsAnsweredBy(
  db: Db,
  creatorId: string,
  correctionId: string,
  embed: EmbedQuestions,
  now = new Date(),
): Promise<number> {
  const correction = await correctionOf(db, creatorId, correctionId);
  const open = await db
    .selectFrom('messages')
    .select(['id', 'body'])
    .where('creator_id', '=', creatorId)
    .where('knowledge_gap_at', 'is not', null)
    .where('gap_closed_at', 'is', null)
    .where('knowledge_gap_at', '>=', new Date(now.getTime() - GAP_WINDOW_DAYS * 86_400_000))
    .orderBy('knowledge_gap_at', 'desc')
    .limit(GAP_QUESTIONS_READ)
    .execute();
  if (open.length === 0) return 0;
  const matched = await questionsAnswered(
    correction,
    open.map((m) => m.body),
    embed,
  );
  const ids = open.filter((m) => matched.has(normalizeQuestion(m.body))).map((m) => String(m.id));
  if (correction.corrected_message_id !== null) {
    const corrected = await db
      .selectFrom('messages')
      .select('reply_to')
      .where('id', '=', correction.corrected_message_id)
      .where('creator_id', '=', creatorId)
      .executeTakeFirst();
    if (corrected?.reply_to) ids.push(String(corrected.reply_to));
  }
  return (await closeKnowledgeGaps(db, creatorId, [...new Set(ids)])).length;
}
