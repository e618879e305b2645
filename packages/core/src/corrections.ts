import { AI_SENDER, CORRECTION_ANSWER_MAX_LENGTH, CORRECTION_QUESTION_MAX_LENGTH } from '@fanpilot/contracts';
import type { AnswerCorrectionRow } from '@fanpilot/db';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';

// Corrections (docs/decisions/0036-try-and-correct-the-chatbot.md): the creator writes the right answer to a
// question the AI answered; it wins over every other piece of knowledge for that question and its
// paraphrases, and the fans who got the wrong answer can be sent it.

/** A question's embedding this close (cosine) to a correction's asks the same thing. */
export const CORRECTION_SIMILARITY = 0.85;
/**
 * Without embeddings (or from another embedder), questions whose content words overlap this much
 * (Jaccard) ask the same thing.
 */
export const CORRECTION_WORD_OVERLAP = 0.6;
/** How many corrections a creator keeps (each is compared with every question at answer time). */
export const CORRECTIONS_MAX = 2_000;

export interface Correction {
  id: string;
  question: string;
  answer: string;
  correctedMessageId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const toCorrection = (r: AnswerCorrectionRow): Correction => ({
  id: r.id,
  question: r.question,
  answer: r.answer,
  correctedMessageId: r.corrected_message_id === null ? null : String(r.corrected_message_id),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** A question as corrections are keyed: lowercased, letters and digits only, spaces collapsed. */
export function normalizeQuestion(question: string): string {
  return question
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const STOP = new Set(
  'a an the and or but of to in on at for from by with about is are was were be been am do does did i you your my me we us our it its this that these those what which who whom how when where why can could should would will shall may might must have has had there here so if then than as into any some please tell hi hello hey'.split(
    ' ',
  ),
);

/** A word's crude stem: enough for "runs"/"running"/"run" to meet. */
export const stem = (word: string) =>
  word.length > 4 ? word.replace(/(ing|ed|es|s)$/u, '') : word.replace(/s$/u, '');

/** The content words of a text, stemmed (no stop words, no single letters). */
export function contentWords(text: string): Set<string> {
  const words = normalizeQuestion(text).split(' ');
  return new Set(words.filter((w) => (w.length > 1 || /\d/.test(w)) && !STOP.has(w)).map(stem));
}

const jaccard = (a: Set<string>, b: Set<string>) => {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
};

export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The cosine of a question's embedding with a correction's, when one model made both; else 0. */
export function embeddingSimilarity(
  question: { vector: readonly number[]; model: string } | null,
  correction: Pick<AnswerCorrectionRow, 'embedding' | 'embedding_model'>,
): number {
  if (!comparable(question, correction)) return 0;
  return cosine(question!.vector, correction.embedding!);
}

/** Both embeddings exist and one model made them. */
const comparable = (
  question: { vector: readonly number[]; model: string } | null,
  correction: Pick<AnswerCorrectionRow, 'embedding' | 'embedding_model'>,
) => Boolean(question && correction.embedding && correction.embedding_model === question.model);

/** The numbers a question names ("week 9", "2 hours"): questions naming other numbers ask other things. */
const numbersIn = (normalized: string) => [...new Set(normalized.match(/\p{N}+/gu) ?? [])].sort().join(' ');

/**
 * How surely `question` asks what `correction` answers (0: another question), the one rule answers and
 * the sending of corrections use:
 *
 * - the same normalised question: 1;
 * - questions naming other numbers ("week 9" and "week 10") never match otherwise: sentence
 *   encoders hardly tell numbers apart (0.997 for those two);
 * - when one model embedded both: their cosine, if at least CORRECTION_SIMILARITY (measured with
 *   the local encoder on paraphrases and look-alike questions: packages/knowledge/quality/
 *   correction-threshold.test.ts);
 * - else (no embedder, or another one): the content words' overlap, if at least
 *   CORRECTION_WORD_OVERLAP.
 */
export function sameQuestionScore(
  question: string,
  embedding: { vector: readonly number[]; model: string } | null,
  correction: Pick<AnswerCorrectionRow, 'normalized' | 'question' | 'embedding' | 'embedding_model'>,
): number {
  const normalized = normalizeQuestion(question);
  if (!normalized) return 0;
  if (normalized === correction.normalized) return 1;
  if (numbersIn(normalized) !== numbersIn(correction.normalized)) return 0;
  if (comparable(embedding, correction)) {
    const score = cosine(embedding!.vector, correction.embedding!);
    return score >= CORRECTION_SIMILARITY ? score : 0;
  }
  const score = jaccard(contentWords(question), contentWords(correction.question));
  return score >= CORRECTION_WORD_OVERLAP ? score : 0;
}

/** Whether `question` asks what `correction` answers (sameQuestionScore above 0). */
export function asksSameQuestion(
  question: string,
  embedding: { vector: readonly number[]; model: string } | null,
  correction: Pick<AnswerCorrectionRow, 'normalized' | 'question' | 'embedding' | 'embedding_model'>,
): boolean {
  return sameQuestionScore(question, embedding, correction) > 0;
}

export interface NewCorrection {
  creatorId: string;
  question: string;
  answer: string;
  /** The question's embedding from the configured embedder, or null (none configured, or it failed). */
  embedding: number[] | null;
  embeddingModel: string | null;
  /** The AI answer (or the fan question it answered) being corrected: the creator's own. */
  messageId?: string | null;
}

function checkText(value: string, field: string, max: number): string {
  const text = value.trim();
  if (!text) throw new DomainError('invalid', 'invalid_input', `Write the ${field}.`);
  if (text.length > max) {
    throw new DomainError(
      'invalid',
      'invalid_input',
      `The ${field} is too long (at most ${max} characters).`,
    );
  }
  return text;
}

/**
 * The creator's AI answer `messageId` (or the AI answer to their fan question `messageId`): its id,
 * the fan question it answered and the fan. Anything else of the creator's, or anyone else's, is
 * not found.
 */
export async function answerBeingCorrected(
  db: Db,
  creatorId: string,
  messageId: string,
): Promise<{ answerId: string; question: string | null; fanId: string | null }> {
  if (!/^[1-9][0-9]{0,18}$/.test(messageId)) {
    throw new DomainError('not_found', 'not_found', 'This answer does not exist.');
  }
  const row = await db
    .selectFrom('messages as m')
    .leftJoin('messages as q', 'q.id', 'm.reply_to')
    .leftJoin('messages as a', (join) => join.onRef('a.reply_to', '=', 'm.id').on('a.sender', '=', AI_SENDER))
    .select(['m.id', 'm.sender', 'm.fan_id', 'q.body as question', 'a.id as answer_id', 'm.body'])
    .where('m.id', '=', messageId)
    .where('m.creator_id', '=', creatorId)
    .executeTakeFirst();
  if (row?.sender === AI_SENDER) {
    return { answerId: String(row.id), question: row.question, fanId: row.fan_id };
  }
  if (row?.sender === 'fan' && row.answer_id !== null) {
    return { answerId: String(row.answer_id), question: row.body, fanId: row.fan_id };
  }
  throw new DomainError('not_found', 'not_found', 'This answer does not exist.');
}

/**
 * Saves the creator's correction: the right answer to `question`, replacing an earlier correction of
 * the same question. With `messageId`, that AI answer must be the creator's.
 */
export async function saveCorrection(db: Db, input: NewCorrection): Promise<Correction> {
  const question = checkText(input.question, 'question', CORRECTION_QUESTION_MAX_LENGTH);
  const answer = checkText(input.answer, 'answer', CORRECTION_ANSWER_MAX_LENGTH);
  const normalized = normalizeQuestion(question);
  if (!normalized) throw new DomainError('invalid', 'invalid_input', 'Write the question in words.');
  const corrected = input.messageId
    ? (await answerBeingCorrected(db, input.creatorId, input.messageId)).answerId
    : null;
  return db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom('answer_corrections')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('creator_id', '=', input.creatorId)
      .where('normalized', '<>', normalized)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= CORRECTIONS_MAX) {
      throw new DomainError(
        'limit',
        'too_many_corrections',
        `You have ${CORRECTIONS_MAX} corrections. Delete some before adding more.`,
      );
    }
    const embedding = input.embedding && input.embedding.length > 0 ? JSON.stringify(input.embedding) : null;
    const row = await trx
      .insertInto('answer_corrections')
      .values({
        creator_id: input.creatorId,
        question,
        normalized,
        answer,
        embedding,
        embedding_model: embedding ? input.embeddingModel : null,
        corrected_message_id: corrected,
      })
      .onConflict((oc) =>
        oc.columns(['creator_id', 'normalized']).doUpdateSet({
          question,
          answer,
          embedding,
          embedding_model: embedding ? input.embeddingModel : null,
          corrected_message_id: corrected,
          updated_at: new Date(),
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCorrection(row);
  });
}

/** The creator's corrections, newest first. */
export async function listCorrections(db: Db, creatorId: string): Promise<Correction[]> {
  const rows = await db
    .selectFrom('answer_corrections')
    .selectAll()
    .where('creator_id', '=', creatorId)
    .orderBy('updated_at', 'desc')
    .limit(CORRECTIONS_MAX)
    .execute();
  return rows.map(toCorrection);
}

/** Deletes one of the creator's corrections (another creator's is not found). */
export async function deleteCorrection(db: Db, creatorId: string, id: string): Promise<void> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const result = uuid.test(id)
    ? await db
        .deleteFrom('answer_corrections')
        .where('id', '=', id)
        .where('creator_id', '=', creatorId)
        .executeTakeFirst()
    : undefined;
  if (!result || Number(result.numDeletedRows) === 0) {
    throw new DomainError('not_found', 'not_found', 'This correction does not exist.');
  }
}

/**
 * The creator's correction that answers `question`, if any: the same normalised question first,
 * then the closest by embedding (cosine at least CORRECTION_SIMILARITY, same embedder only), then by
 * content words (Jaccard at least CORRECTION_WORD_OVERLAP).
 */
export async function matchCorrection(
  db: Db,
  creatorId: string,
  question: string,
  /** Embeds the question (asked only when a correction could match by embedding); null: none. */
  embed: () => Promise<{ vector: number[]; model: string } | null>,
): Promise<(Correction & { similarity: number }) | undefined> {
  const normalized = normalizeQuestion(question);
  if (!normalized) return undefined;
  const rows = await db
    .selectFrom('answer_corrections')
    .selectAll()
    .where('creator_id', '=', creatorId)
    .orderBy('updated_at', 'desc')
    .limit(CORRECTIONS_MAX)
    .execute();
  if (rows.length === 0) return undefined;
  const same = rows.find((r) => r.normalized === normalized);
  if (same) return { ...toCorrection(same), similarity: 1 };
  // By meaning where one model embedded both questions, else by words (sameQuestionScore); a match
  // by meaning wins over one by words.
  const embedding = rows.some((r) => r.embedding) ? await embed() : null;
  let best: { row: AnswerCorrectionRow; score: number; byMeaning: boolean } | undefined;
  for (const r of rows) {
    const score = sameQuestionScore(question, embedding, r);
    if (score === 0) continue;
    const byMeaning = comparable(embedding, r);
    if (!best || (byMeaning && !best.byMeaning) || (byMeaning === best.byMeaning && score > best.score)) {
      best = { row: r, score, byMeaning };
    }
  }
  return best ? { ...toCorrection(best.row), similarity: best.score } : undefined;
}
