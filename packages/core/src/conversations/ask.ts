import { randomUUID } from 'node:crypto';
import { ASK_IDEMPOTENCY_WINDOW_HOURS, JOBS } from '@fanpilot/contracts';
import type { FanRow } from '@fanpilot/db';
import { noteAlert } from '../alerts/note-alert.ts';
import { type AnswerDecisionKind, forecastAnswer } from '../answer-policy.ts';
import { attachmentsRepository } from '../attachments.ts';
import { DomainError } from '../errors.ts';
import { notePaywallMet } from '../fan-plans/fan-state.ts';
import { fansRepository } from '../fans.ts';
import { writeJob } from '../job-outbox.ts';
import { type MessageView, messagesRepository } from '../messages.ts';
import type { CheckedAttachment } from './check-attachment.ts';
import { defaultFanName } from './fan-name.ts';
import { type ConversationPortsWithFiles, now } from './ports.ts';

/** How long a fan's Idempotency-Key on a question is remembered. */
export const ASK_IDEMPOTENCY_WINDOW_MS = ASK_IDEMPOTENCY_WINDOW_HOURS * 60 * 60 * 1000;

export interface AskInput {
  creatorId: string;
  /** The fan asking, already claimed for this browser (claimFan). */
  fan: FanRow;
  text: string;
  fanName: string | undefined;
  attachment: CheckedAttachment | null;
  /** The fan's Idempotency-Key, when it sent one. */
  clientKey?: string | undefined;
  /**
   * The message is only a memory command ("forget everything", forgetCommand): it is stored as
   * answered (the fan is answered by the confirmation), and not forecast, queued for the AI,
   * alerted or charged.
   */
  memoryCommand?: boolean;
}

export interface Asked {
  /** The question as stored (for a resend, the one stored the first time). */
  message: MessageView;
  /** Whether the creator's AI answers it (the answer policy's forecast, or the AI's reply to a resend). */
  aiWillAnswer: boolean;
  /**
   * Set when this call stored the question and the AI answers it: the answer job's queue priority.
   * The job itself is written with the question, in its transaction (record 0077).
   */
  queueForAi: { priority: number } | null;
  /** Past the free allowance without a subscription: the fan app shows the plan card (record 0043). */
  paywall: boolean;
}

/**
 * A fan asks a creator a question. It is stored pending (with its attachment), and the answer
 * policy forecasts whether the AI answers it. With an Idempotency-Key a resend of the same question
 * within the window stores, queues and charges nothing and gets the first one's outcome; the same
 * key with a different question is refused.
 */
export async function ask(ports: ConversationPortsWithFiles, input: AskInput): Promise<Asked> {
  const { db } = ports;
  const at = now(ports);
  const cutoff = new Date(at.getTime() - ASK_IDEMPOTENCY_WINDOW_MS);
  const messages = messagesRepository(db);

  /** A resend (same Idempotency-Key): the stored question's outcome; nothing stored, queued or charged. */
  const replay = async (stored: MessageView): Promise<Asked> => {
    if (!isSameQuestion(stored, input.text, input.attachment)) {
      throw new DomainError(
        'unprocessable',
        'idempotency_key_reused',
        'This Idempotency-Key was already used for a different message; send a new message with a new key.',
      );
    }
    const aiWillAnswer =
      stored.status === 'pending'
        ? (await forecastAnswer(db, input.creatorId, stored.id, at)).decision === 'ai'
        : await messages.hasAiReply(stored.id);
    return { message: stored, aiWillAnswer, queueForAi: null, paywall: false };
  };

  if (input.clientKey) {
    const earlier = await messages.findByClientKey(input.fan.id, input.clientKey, cutoff);
    if (earlier) return replay(earlier);
  }
  const stored = await storeQuestion(ports, input, cutoff, at);
  // A concurrent request with the same key stored it first.
  if (!stored.created) return replay((await messages.findView(stored.messageId))!);
  if (!stored.forecast) {
    return {
      message: (await messages.findView(stored.messageId))!,
      aiWillAnswer: false,
      queueForAi: null,
      paywall: false,
    };
  }
  const { decision, priority } = stored.forecast;
  const message = (await messages.findView(stored.messageId))!;
  const aiWillAnswer = decision === 'ai';
  const paywall = decision === 'paywall';
  // The first time this fan meets the paywall: the conversion's denominator (record 0043).
  if (paywall) await notePaywallMet(db, input.fan.id, at);
  // The creator answers this one (Online, or the AI may not; not a fan at the paywall, who is asked
  // to subscribe): they hear of it (record 0061). Noted once per question; a lost note is caught by
  // the waiting-time alert.
  if (!aiWillAnswer && !paywall) {
    await noteAlert(db, {
      creatorId: input.creatorId,
      kind: 'question',
      ref: stored.messageId,
      fanId: input.fan.id,
      detail: input.text,
      // The true reason, for the email and push (not "Your AI handed this question to you").
      reason: decision,
    });
  }
  return { message, aiWillAnswer, queueForAi: aiWillAnswer ? { priority } : null, paywall };
}

/** Whether a resent question (same Idempotency-Key) is the question stored under that key. */
function isSameQuestion(
  stored: MessageView,
  text: string,
  attachment: Pick<CheckedAttachment, 'filename' | 'buffer'> | null,
): boolean {
  if (stored.body !== text) return false;
  if (!attachment || !stored.attachment) return !attachment && !stored.attachment;
  return (
    stored.attachment.originalFilename === attachment.filename &&
    stored.attachment.fileSize === attachment.buffer.length
  );
}

/**
 * Stores the question (pending) and its attachment, with the forecast of who answers it and, when
 * that is the AI, its answer job (written in the same transaction: once the question is committed,
 * the AI's job is too). With an Idempotency-Key (`clientKey`) it is
 * stored only if this fan has no message under that key yet (a key older than the window is freed
 * first); otherwise nothing is stored and the id of the message that holds the key comes back with
 * `created: false`.
 */
async function storeQuestion(
  ports: ConversationPortsWithFiles,
  input: AskInput,
  cutoff: Date,
  at: Date,
): Promise<
  | {
      messageId: string;
      created: true;
      /** None for a memory command (nothing forecast, nothing queued). */
      forecast: { decision: AnswerDecisionKind; priority: number } | null;
    }
  | { messageId: string; created: false }
> {
  const { fan, attachment, clientKey } = input;
  let key: string | null = null;
  if (attachment) {
    key = `attachments/${input.creatorId}/${randomUUID()}`;
    await ports.storage.put(key, attachment.buffer, attachment.mime);
  }
  let result: Awaited<ReturnType<typeof storeQuestion>>;
  try {
    result = await ports.db.transaction().execute(async (trx) => {
      const messages = messagesRepository(trx);
      const values = {
        creatorId: input.creatorId,
        fanRowId: fan.id,
        sender: 'fan' as const,
        body: input.text,
        status: input.memoryCommand ? ('answered' as const) : ('pending' as const),
        replyTo: null,
        fanName: input.fanName ?? fan.name ?? defaultFanName(fan.fan_key),
      };
      let id: string | undefined;
      if (clientKey) {
        await messages.releaseClientKey(fan.id, clientKey, cutoff);
        id = await messages.insertKeyed({ ...values, clientKey });
        if (id === undefined) {
          // A concurrent request with the same key stored it first; its transaction has committed.
          const original = await messages.findByClientKey(fan.id, clientKey);
          if (!original) {
            throw new DomainError(
              'conflict',
              'conflict',
              'The same message is being sent right now. Please try again.',
            );
          }
          return { messageId: original.id, created: false as const };
        }
      } else {
        id = await messages.insert(values);
      }
      if (attachment && key) {
        await attachmentsRepository(trx).insert({
          messageId: id,
          creatorId: input.creatorId,
          storageKey: key,
          originalFilename: attachment.filename,
          fileType: attachment.fileType,
          mimeType: attachment.mime,
          fileSize: attachment.buffer.length,
        });
      }
      await fansRepository(trx).touch(fan.id, input.fanName);
      if (input.memoryCommand) return { messageId: id, created: true as const, forecast: null };
      const forecast = await forecastAnswer(trx, input.creatorId, id, at);
      if (forecast.decision === 'ai') {
        await writeJob(trx, JOBS.answer, { messageId: id }, { priority: forecast.priority });
      }
      return { messageId: id, created: true as const, forecast };
    });
  } catch (err) {
    if (key) await ports.storage.remove(key).catch(() => {});
    throw err;
  }
  // The question was already stored: this copy of the file is not needed.
  if (!result.created && key) await ports.storage.remove(key).catch(() => {});
  return result;
}
