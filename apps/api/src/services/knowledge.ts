import { randomUUID } from 'node:crypto';
import { KNOWLEDGE_FILE_MAX_BYTES, type KnowledgeProgress } from '@fanpilot/contracts';
import {
  assertKnowledgeRoom,
  knowledgeRepository,
  type NewKnowledgeItem,
  ownChatbot,
  ownKnowledgeItem,
} from '@fanpilot/core';
import type { ChatbotRow, CreatorRow, Database, KnowledgeItemRow } from '@fanpilot/db';
import {
  detectKnowledgeFile,
  IngestError,
  MIME_BY_KIND,
  parseWebUrl,
  parseYoutubeUrl,
  type YoutubeLink,
} from '@fanpilot/knowledge';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { badRequest, HttpError } from '../errors.ts';
import type { Storage } from '../plugins/storage.ts';
import { toKnowledgeItem } from '../serializers.ts';

/** The signed-in creator's chatbot `id`: 401 signed out, 404 unknown, 403 someone else's. */
export async function ownedChatbot(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
): Promise<{ creator: CreatorRow; chatbot: ChatbotRow }> {
  const creator = await app.requireCreator(request);
  return { creator, chatbot: await ownChatbot(app.db, creator.id, id) };
}

/** The signed-in creator's knowledge item `id`, with the same 401/404/403 rule. */
export async function ownedKnowledgeItem(app: FastifyInstance, request: FastifyRequest, id: string) {
  const creator = await app.requireCreator(request);
  return ownKnowledgeItem(app.db, creator.id, id);
}

/** A source the creator typed: a YouTube link becomes a video item, anything else a web page. */
export type SourceInput = { type: 'url'; url: string } | { type: 'youtube'; link: YoutubeLink };

export function parseSource(raw: string): SourceInput {
  try {
    return { type: 'youtube', link: parseYoutubeUrl(raw) };
  } catch {
    // Not a video link: a web page then.
  }
  try {
    return { type: 'url', url: parseWebUrl(raw).toString() };
  } catch (err) {
    throw badRequest(
      `${err instanceof IngestError ? err.reason : 'This is not a valid web address.'} (${raw.slice(0, 200)})`,
      'invalid_url',
    );
  }
}

export function toNewItem(chatbotId: string, source: SourceInput, title?: string | null): NewKnowledgeItem {
  const id = randomUUID();
  return source.type === 'youtube'
    ? { id, chatbotId, type: 'youtube', youtubeUrl: source.link.url, title: title ?? null }
    : { id, chatbotId, type: 'url', url: source.url };
}

/**
 * The specified progress summary. `active` counts ready sources (completed or active), `pending` those not
 * yet done (pending or processing); failed ones count in neither. progressPercentage is the share of
 * sources finished (ready or failed); isComplete is true once none is pending.
 */
export function progressOf(items: KnowledgeItemRow[]): KnowledgeProgress {
  const total = items.length;
  const active = items.filter((i) => i.status === 'completed' || i.status === 'active').length;
  const pending = items.filter((i) => i.status === 'pending' || i.status === 'processing').length;
  const failed = items.filter((i) => i.status === 'failed').length;
  const progressPercentage = total === 0 ? 0 : Math.round(((total - pending) / total) * 100);
  return {
    total,
    active,
    pending,
    failed,
    progressPercentage,
    isComplete: total > 0 && pending === 0,
    items: items.map(toKnowledgeItem),
  };
}

export const knowledgeFileTooLarge = () =>
  new HttpError(
    413,
    'file_too_large',
    `The file is larger than ${KNOWLEDGE_FILE_MAX_BYTES / 1024 / 1024} MB.`,
  );

/** A file name safe to store and show: its last path part, printable, at most 200 characters. */
export const cleanFileName = (name: string) =>
  (name.split(/[\\/]/).pop() ?? '')
    .split('')
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(-200);

/**
 * A knowledge file, whichever way it came (a form upload, or an object the browser put into the
 * store): at most 10 MB, named, of the type its name claims by content (pdf, txt, doc, docx). It
 * is stored under knowledge/{chatbot}/{item} and the item inserted (its ingest job with it: record 0077).
 */
/** What adding a knowledge file touches: the database and the object store. */
export interface KnowledgeDeps {
  db: Kysely<Database>;
  storage: Storage;
}

export async function addKnowledgeFile(
  deps: KnowledgeDeps,
  log: FastifyBaseLogger,
  chatbotId: string,
  bytes: Buffer,
  rawFileName: string,
  options: { fansMayDownload?: boolean } = {},
): Promise<KnowledgeItemRow> {
  if (bytes.length > KNOWLEDGE_FILE_MAX_BYTES) throw knowledgeFileTooLarge();
  const fileName = cleanFileName(rawFileName);
  if (!fileName) throw badRequest('The file has no name.', 'no_file');
  let kind: Awaited<ReturnType<typeof detectKnowledgeFile>>;
  try {
    kind = await detectKnowledgeFile(bytes, fileName);
  } catch (err) {
    if (err instanceof IngestError) throw badRequest(err.reason, 'unsupported_file');
    throw err;
  }
  await assertKnowledgeRoom(deps.db, chatbotId, 1);
  const id = randomUUID();
  const key = `knowledge/${chatbotId}/${id}`;
  await deps.storage.put(key, bytes, MIME_BY_KIND[kind]);
  let item: KnowledgeItemRow;
  try {
    item = await knowledgeRepository(deps.db).insert({
      id,
      chatbotId,
      type: 'file',
      fileName,
      fileKey: key,
      fileSize: bytes.length,
      fansMayDownload: options.fansMayDownload === true,
    });
  } catch (err) {
    await deps.storage.remove(key).catch(() => {});
    throw err;
  }
  return item;
}
