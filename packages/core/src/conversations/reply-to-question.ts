import type { StoredSource } from '@fanpilot/contracts';
import { AI_SENDER } from '@fanpilot/contracts';
import type { Database, MessageRow } from '@fanpilot/db';
import { sql, type Transaction } from 'kysely';

// "Reply to a question": the one way a question gets its answer, whoever gives it (the creator
// from the inbox or a direct message, the AI from its answer job).

/** A fan's question, locked in the caller's transaction and seen pending: only it can be replied to. */
export interface PendingQuestion {
  readonly id: string;
  readonly creatorId: string;
  readonly fanRowId: string | null;
  readonly fanName: string | null;
  readonly pending: true;
}

export type LockedQuestion =
  | { found: false }
  | {
      found: true;
      sender: MessageRow['sender'];
      status: MessageRow['status'];
      question: PendingQuestion | null;
    };

/**
 * Locks message `id` (of `creatorId`, when given) until the transaction ends and says whether it is
 * a fan's question still waiting for its answer.
 */
export async function lockQuestion(
  trx: Transaction<Database>,
  id: string,
  creatorId?: string,
): Promise<LockedQuestion> {
  let query = trx
    .selectFrom('messages')
    .select(['id', 'creator_id', 'sender', 'status', 'fan_id', 'fan_name'])
    .where('id', '=', id);
  if (creatorId !== undefined) query = query.where('creator_id', '=', creatorId);
  const row = await query.forUpdate().executeTakeFirst();
  if (!row) return { found: false };
  const waiting = row.sender === 'fan' && row.status === 'pending';
  return {
    found: true,
    sender: row.sender,
    status: row.status,
    question: waiting
      ? {
          id: String(row.id),
          creatorId: row.creator_id,
          fanRowId: row.fan_id,
          fanName: row.fan_name,
          pending: true,
        }
      : null,
  };
}

/** The newest question of this fan still waiting for its answer, locked until the transaction ends. */
export async function lockNewestPendingQuestion(
  trx: Transaction<Database>,
  fanRowId: string,
): Promise<PendingQuestion | null> {
  const row = await trx
    .selectFrom('messages')
    .select(['id', 'creator_id', 'fan_id', 'fan_name'])
    .where('fan_id', '=', fanRowId)
    .where('sender', '=', 'fan')
    .where('status', '=', 'pending')
    .orderBy('id', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
  return row
    ? {
        id: String(row.id),
        creatorId: row.creator_id,
        fanRowId: row.fan_id,
        fanName: row.fan_name,
        pending: true,
      }
    : null;
}

export interface Reply {
  sender: 'creator' | typeof AI_SENDER;
  body: string;
  /** What the AI's answer rests on (the creator's replies cite nothing). */
  sources?: StoredSource[];
  /** The answer rests on nothing of the creator's knowledge: the question is a knowledge gap. */
  gap?: boolean;
  /**
   * The AI's reply passes the question on to the creator (it said the material does not cover it):
   * the question stays pending, counted and "Awaiting response" until the creator answers it, and
   * no sweep gives it to the AI again (docs/decisions/0035-an-honest-embedded-answerer-and-hand-overs-that-wait.md).
   */
  handOver?: boolean;
  at: Date;
}

/**
 * Replies to a pending question in the caller's transaction: the reply is stored linked to it and
 * the question becomes answered. At most once: the question is locked and pending, and an AI reply
 * the unique index already holds (one AI reply per question) stores nothing and returns undefined.
 */
export async function replyToQuestion(
  trx: Transaction<Database>,
  question: PendingQuestion,
  reply: Reply,
): Promise<string | undefined> {
  const insert = trx.insertInto('messages').values({
    creator_id: question.creatorId,
    fan_id: question.fanRowId,
    sender: reply.sender,
    body: reply.body,
    status: null,
    reply_to: question.id,
    fan_name: question.fanName,
    ...(reply.sources ? { sources: JSON.stringify(reply.sources) } : {}),
  });
  const inserted = await (reply.sender === AI_SENDER
    ? insert.onConflict((oc) =>
        oc
          .column('reply_to')
          .where(sql<boolean>`sender = ${sql.lit(AI_SENDER)}`)
          .doNothing(),
      )
    : insert
  )
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return undefined;
  const handOver = reply.handOver === true && reply.sender === AI_SENDER;
  await trx
    .updateTable('messages')
    .set({
      ...(handOver
        ? { ai_handed_over_at: reply.at }
        : { status: 'answered' as const, answered_at: reply.at }),
      ...(reply.gap ? { knowledge_gap_at: reply.at } : {}),
    })
    .where('id', '=', question.id)
    .where('status', '=', 'pending')
    .execute();
  return String(inserted.id);
}
