import { randomUUID } from 'node:crypto';
import {
  ASK_IDEMPOTENCY_WINDOW_HOURS,
  FAN_ATTACHMENT_MAX_BYTES,
  FAN_ATTACHMENT_MIME_TYPES,
} from '@fanpilot/contracts';
import {
  attachmentsRepository,
  type FanRequester,
  fansRepository,
  type MessageView,
  mayActAsFan,
  messagesRepository,
} from '@fanpilot/core';
import type { CreatorRow, Database, FanRow } from '@fanpilot/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { Kysely } from 'kysely';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../errors.ts';
import type { Storage } from '../plugins/storage.ts';
import { defaultFanName, ensureFanToken, fanTokenHash, hashFanToken } from './fan-identity.ts';

export const FAN_FORBIDDEN_MESSAGE =
  'This conversation belongs to another browser. Open the chat there, or move it here with a transfer link made in that browser.';

export interface CheckedAttachment {
  buffer: Buffer;
  mime: string;
  fileType: 'pdf' | 'image';
  filename: string;
}

/** Decodes a fan's attachment and checks it by content: an image or a PDF of at most 10 MB. */
export async function checkAttachment(filename: string, base64: string): Promise<CheckedAttachment> {
  const buffer = Buffer.from(base64, 'base64');
  if (buffer.length === 0) throw badRequest('The attachment is empty.', 'invalid_attachment');
  if (buffer.length > FAN_ATTACHMENT_MAX_BYTES) {
    throw new HttpError(413, 'attachment_too_large', 'The attachment is larger than 10 MB.');
  }
  const type = await fileTypeFromBuffer(buffer);
  if (!type || !(FAN_ATTACHMENT_MIME_TYPES as readonly string[]).includes(type.mime)) {
    throw badRequest(
      'Only images (PNG, JPEG, GIF, WebP) and PDF files can be attached.',
      'unsupported_attachment',
    );
  }
  // Control characters and path separators never reach a header or a download name.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const safeName = filename.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim() || 'attachment';
  return {
    buffer,
    mime: type.mime,
    fileType: type.mime === 'application/pdf' ? 'pdf' : 'image',
    filename: safeName,
  };
}

/** Who is asking about a fan's conversation: the browser's fan cookie, and the signed-in creator. */
export type { FanRequester };

/** The browser's fan cookie and the signed-in creator of `request`. */
export async function fanRequester(request: FastifyRequest): Promise<FanRequester> {
  const creator = await request.currentCreator();
  return { cookieHash: fanTokenHash(request), creatorId: creator?.id ?? null };
}

/** Fan requests as a fan only: the creator's session counts for nothing here. */
export const asFanOnly = (request: FastifyRequest): FanRequester => ({
  cookieHash: fanTokenHash(request),
  creatorId: null,
});

/**
 * The one rule for a fan's conversation, as packages/core states it (rights.ts): the browser the
 * conversation is bound to may read and write it, the creator it talks to may read it, nobody else
 * may do anything. Event streams and the 304 shortcut use the same rule.
 */
export { mayActAsFan };

/**
 * The fan behind `fanKey` for this creator, for a question. A fan id new to this creator becomes a
 * fan bound to this browser's fan cookie (issued when it holds none), after `beforeNewFan` (the
 * brake on new fans per address) let it. A fan that exists is only this browser's when its cookie
 * is the one the fan is bound to (403 otherwise, and nothing is written).
 */
export async function claimFan(
  db: Kysely<Database>,
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    creatorId: string;
    fanKey: string;
    fanName: string | undefined;
    secureCookie: boolean;
    beforeNewFan: () => Promise<void>;
  },
): Promise<FanRow> {
  const fans = fansRepository(db);
  const existing = await fans.findByKey(options.creatorId, options.fanKey);
  if (existing?.cookie_hash) {
    if (!mayActAsFan(asFanOnly(request), existing, 'write')) throw forbidden(FAN_FORBIDDEN_MESSAGE);
    return existing;
  }
  if (!existing) await options.beforeNewFan();
  const hash = hashFanToken(ensureFanToken(request, reply, options.secureCookie));
  // Two first contacts may race: the row (or the bind) decides who owns the fan id. A row with no
  // cookie (made before fans had one) is bound by its first question.
  const row = existing
    ? await fans.bindIfUnbound(existing.id, hash)
    : await fans.insertOrGet({
        creatorId: options.creatorId,
        fanKey: options.fanKey,
        name: options.fanName ?? null,
        cookieHash: hash,
      });
  if (row.cookie_hash !== hash) throw forbidden(FAN_FORBIDDEN_MESSAGE);
  return row;
}

/** How long a fan's Idempotency-Key on POST /api/ask is remembered. */
export const ASK_IDEMPOTENCY_WINDOW_MS = ASK_IDEMPOTENCY_WINDOW_HOURS * 60 * 60 * 1000;

const idempotencyCutoff = (now: Date) => new Date(now.getTime() - ASK_IDEMPOTENCY_WINDOW_MS);

/** The question this fan sent with this Idempotency-Key within the window, if any. */
export function findAskedWithKey(
  db: Kysely<Database>,
  fanRowId: string,
  clientKey: string,
  now = new Date(),
): Promise<MessageView | undefined> {
  return messagesRepository(db).findByClientKey(fanRowId, clientKey, idempotencyCutoff(now));
}

/** Whether a resent question (same Idempotency-Key) is the question stored under that key. */
export function isSameQuestion(
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
 * Stores a fan's question (pending) and its attachment. With an Idempotency-Key (`clientKey`) the
 * question is stored only if this fan has no message under that key yet (a key older than the
 * window is freed first); otherwise nothing is stored and the id of the message that holds the key
 * comes back with `created: false`.
 */
export async function storeFanMessage(
  db: Kysely<Database>,
  storage: Storage,
  options: {
    creator: CreatorRow;
    fan: FanRow;
    text: string;
    fanName: string | undefined;
    attachment: CheckedAttachment | null;
    clientKey?: string | undefined;
    now?: Date;
  },
): Promise<{ messageId: string; created: boolean }> {
  const { creator, fan, attachment, clientKey } = options;
  let key: string | null = null;
  if (attachment) {
    key = `attachments/${creator.id}/${randomUUID()}`;
    await storage.put(key, attachment.buffer, attachment.mime);
  }
  let result: { messageId: string; created: boolean };
  try {
    result = await db.transaction().execute(async (trx) => {
      const messages = messagesRepository(trx);
      const values = {
        creatorId: creator.id,
        fanRowId: fan.id,
        sender: 'fan' as const,
        body: options.text,
        status: 'pending' as const,
        replyTo: null,
        fanName: options.fanName ?? fan.name ?? defaultFanName(fan.fan_key),
      };
      let id: string | undefined;
      if (clientKey) {
        await messages.releaseClientKey(fan.id, clientKey, idempotencyCutoff(options.now ?? new Date()));
        id = await messages.insertKeyed({ ...values, clientKey });
        if (id === undefined) {
          // A concurrent request with the same key stored it first; its transaction has committed.
          const original = await messages.findByClientKey(fan.id, clientKey);
          if (!original) throw conflict('The same message is being sent right now. Please try again.');
          return { messageId: original.id, created: false };
        }
      } else {
        id = await messages.insert(values);
      }
      if (attachment && key) {
        await attachmentsRepository(trx).insert({
          messageId: id,
          creatorId: creator.id,
          storageKey: key,
          originalFilename: attachment.filename,
          fileType: attachment.fileType,
          mimeType: attachment.mime,
          fileSize: attachment.buffer.length,
        });
      }
      await fansRepository(trx).touch(fan.id, options.fanName);
      return { messageId: id, created: true };
    });
  } catch (err) {
    if (key) await storage.remove(key).catch(() => {});
    throw err;
  }
  // The question was already stored: this copy of the file is not needed.
  if (!result.created && key) await storage.remove(key).catch(() => {});
  return result;
}

/**
 * The creator answers a pending fan message: the reply is stored linked to it and the message
 * becomes answered, in one transaction. Answering twice, or after the AI did, is a 409.
 */
export async function answerAsCreator(
  db: Kysely<Database>,
  creatorId: string,
  messageId: string,
  text: string,
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const messages = messagesRepository(trx);
    const question = await messages.lockForCreator(creatorId, messageId);
    if (!question) throw notFound('No such message.');
    if (question.sender !== 'fan') {
      throw badRequest('Only a fan message can be answered.', 'not_a_fan_message');
    }
    if (question.status !== 'pending') {
      throw conflict('This question has already been answered.', 'already_answered');
    }
    const replyId = await messages.insert({
      creatorId,
      fanRowId: question.fan_id,
      sender: 'creator',
      body: text,
      status: null,
      replyTo: question.id,
      fanName: question.fan_name,
    });
    await messages.markAnswered(question.id);
    return replyId;
  });
}

/**
 * A creator's message to a fan (SPEC section 4): it answers the fan's newest pending message when
 * there is one, and is a new direct message in the fan's conversation otherwise.
 */
export async function sendToFan(
  db: Kysely<Database>,
  creatorId: string,
  fan: FanRow,
  text: string,
): Promise<{ messageId: string; answeredMessageId: string | null }> {
  return db.transaction().execute(async (trx) => {
    const messages = messagesRepository(trx);
    const pending = await messages.lockNewestPending(fan.id);
    const messageId = await messages.insert({
      creatorId,
      fanRowId: fan.id,
      sender: 'creator',
      body: text,
      status: null,
      replyTo: pending?.id ?? null,
      fanName: pending?.fan_name ?? fan.name,
    });
    if (pending) await messages.markAnswered(pending.id);
    return { messageId, answeredMessageId: pending ? String(pending.id) : null };
  });
}

/**
 * Deletes a conversation: the fan with this id (with all its messages and files), or else the
 * messages of an anonymous fan (one without an id) known by this name.
 */
export async function deleteConversation(
  db: Kysely<Database>,
  storage: Storage,
  creatorId: string,
  fanIdOrName: string,
): Promise<number> {
  const { keys, deleted } = await db.transaction().execute(async (trx) => {
    const fan = await fansRepository(trx).findByKey(creatorId, fanIdOrName);
    if (fan) {
      const keys = await attachmentsRepository(trx).keysForFan(fan.id);
      const deleted = await messagesRepository(trx).countForFan(fan.id);
      await fansRepository(trx).remove(fan.id);
      return { keys, deleted };
    }
    const keys = await attachmentsRepository(trx).keysForAnonymous(creatorId, fanIdOrName);
    const deleted = await messagesRepository(trx).removeAnonymous(creatorId, fanIdOrName);
    if (deleted === 0) throw notFound(`No conversation with '${fanIdOrName}'.`);
    return { keys, deleted };
  });
  // The rows are gone; a file left behind by a storage hiccup is unreachable, not exposed.
  await Promise.all(keys.map((key) => storage.remove(key).catch(() => {})));
  return deleted;
}
