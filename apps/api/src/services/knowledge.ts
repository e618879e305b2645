import { randomUUID } from 'node:crypto';
import { KNOWLEDGE_FILE_MAX_BYTES, type KnowledgeProgress } from '@fanpilot/contracts';
import type { ChatbotRow, CreatorRow, Database, KnowledgeItemRow } from '@fanpilot/db';
import type { JobRunner } from '@fanpilot/jobs';
import {
  detectKnowledgeFile,
  enqueueIngest,
  IngestError,
  MIME_BY_KIND,
  parseWebUrl,
  parseYoutubeUrl,
  type YoutubeLink,
} from '@fanpilot/knowledge';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { badRequest, forbidden, HttpError, notFound } from '../errors.ts';
import { chatbotsRepository } from '../repositories/chatbots.ts';
import { knowledgeRepository, type NewKnowledgeItem } from '../repositories/knowledge.ts';
import { toKnowledgeItem } from '../serializers.ts';

/** Sources one chatbot may hold. */
export const KNOWLEDGE_MAX_ITEMS = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The signed-in creator's chatbot `id`: 401 signed out, 404 unknown, 403 someone else's. */
export async function ownedChatbot(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
): Promise<{ creator: CreatorRow; chatbot: ChatbotRow }> {
  const creator = await app.requireCreator(request);
  const chatbot = UUID.test(id) ? await chatbotsRepository(app.db).findById(id) : undefined;
  if (!chatbot) throw notFound('No chatbot with this id.');
  if (chatbot.creator_id !== creator.id) throw forbidden();
  return { creator, chatbot };
}

/** The signed-in creator's knowledge item `id`, with the same 401/404/403 rule. */
export async function ownedKnowledgeItem(app: FastifyInstance, request: FastifyRequest, id: string) {
  const creator = await app.requireCreator(request);
  const item = UUID.test(id) ? await knowledgeRepository(app.db).findById(id) : undefined;
  if (!item) throw notFound('No knowledge item with this id.');
  if (item.creator_id !== creator.id) throw forbidden();
  return item;
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

export async function assertRoom(db: Kysely<Database>, chatbotId: string, adding: number) {
  const count = await knowledgeRepository(db).count(chatbotId);
  if (count + adding > KNOWLEDGE_MAX_ITEMS) {
    throw new HttpError(
      409,
      'too_many_sources',
      `A chatbot can hold at most ${KNOWLEDGE_MAX_ITEMS} knowledge sources. Delete some to add more.`,
    );
  }
}

/**
 * Enqueues the items' ingest jobs after they are committed. A failed enqueue (Redis down) leaves the
 * item pending; the sweeper re-queues it later, so the request still succeeds.
 */
export async function enqueueItems(jobs: JobRunner, log: FastifyBaseLogger, items: KnowledgeItemRow[]) {
  for (const item of items) {
    try {
      await enqueueIngest(jobs, item.id, item.job_run ?? item.id);
    } catch (err) {
      log.warn({ item: item.id, err }, 'could not enqueue ingest; the sweeper will retry');
    }
  }
}

/**
 * SPEC's progress summary. `active` counts ready sources (completed or active), `pending` those not
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
 * is stored under knowledge/{chatbot}/{item}, the item inserted and its ingestion enqueued.
 */
export async function addKnowledgeFile(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  chatbotId: string,
  bytes: Buffer,
  rawFileName: string,
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
  await assertRoom(app.db, chatbotId, 1);
  const id = randomUUID();
  const key = `knowledge/${chatbotId}/${id}`;
  await app.storage.put(key, bytes, MIME_BY_KIND[kind]);
  let item: KnowledgeItemRow;
  try {
    item = await knowledgeRepository(app.db).insert({
      id,
      chatbotId,
      type: 'file',
      fileName,
      fileKey: key,
      fileSize: bytes.length,
    });
  } catch (err) {
    await app.storage.remove(key).catch(() => {});
    throw err;
  }
  await enqueueItems(app.jobs, log, [item]);
  return item;
}
