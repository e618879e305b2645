import { randomUUID } from 'node:crypto';
import { KNOWLEDGE_FILE_MAX_BYTES, type KnowledgeProgress } from '@fanpilot/contracts';
import type { Database, KnowledgeItemRow } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import { offerFileToFans } from './citations.ts';
import type { FileStore } from './conversations/ports.ts';
import { DomainError } from './errors.ts';
import {
  assertKnowledgeRoom,
  assertNewAddress,
  assertResyncable,
  assertRetryable,
  knowledgeRepository,
  type NewKnowledgeItem,
  requeueKnowledgeItem,
} from './knowledge.ts';
import { ownChatbot, ownKnowledgeItem } from './ownership.ts';

/**
 * The knowledge use cases (issue 35): each takes (ports, requester, input), checks that the
 * requester owns the chatbot or item, states every refusal as a DomainError and writes the rows.
 * Starting the ingestion of what it wrote is the caller's (the job seam, issue 35's outbox).
 */

/** What a source looks like, read by the ingestion package (core cannot import it: it builds on core). */
export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface KnowledgeSources {
  /** A YouTube video link: its canonical address and video id, or why it is not one. */
  youtube(raw: string): Read<{ url: string; videoId: string }>;
  /** A web page address, normalised, or why it is not one. */
  web(raw: string): Read<string>;
  /** The type a file's content has (pdf, txt, doc, docx), as a MIME type, or why it is refused. */
  fileType(bytes: Buffer, fileName: string): Promise<Read<string>>;
  /** A video's title, when YouTube answers soon; null otherwise (the worker finds it later). */
  youtubeTitle(videoId: string): Promise<string | null>;
}

export interface KnowledgePorts {
  db: Kysely<Database>;
  storage: FileStore;
  sources: KnowledgeSources;
}

/** The signed-in creator a knowledge use case acts for. */
export interface CreatorRequester {
  creatorId: string;
}

export const knowledgeFileTooLarge = () =>
  new DomainError(
    'too_large',
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
 * The specified progress summary. `active` counts ready sources (completed or active), `pending` those not
 * yet done (pending or processing); failed ones count in neither. progressPercentage is the share of
 * sources finished (ready or failed); isComplete is true once none is pending.
 */
export function progressCounts(items: KnowledgeItemRow[]): Omit<KnowledgeProgress, 'items'> {
  const total = items.length;
  const active = items.filter((i) => i.status === 'completed' || i.status === 'active').length;
  const pending = items.filter((i) => i.status === 'pending' || i.status === 'processing').length;
  const failed = items.filter((i) => i.status === 'failed').length;
  const progressPercentage = total === 0 ? 0 : Math.round(((total - pending) / total) * 100);
  return { total, active, pending, failed, progressPercentage, isComplete: total > 0 && pending === 0 };
}

/** The chatbot's sources, oldest first: for the progress summary. */
export async function knowledgeOfChatbot(
  ports: Pick<KnowledgePorts, 'db'>,
  who: CreatorRequester,
  input: { chatbotId: string },
): Promise<KnowledgeItemRow[]> {
  const chatbot = await ownChatbot(ports.db, who.creatorId, input.chatbotId);
  return knowledgeRepository(ports.db).listByChatbot(chatbot.id);
}

/**
 * Adds a source the creator typed: a YouTube link becomes a video item (titled when YouTube
 * answers soon), anything else a web page. Refused: not an address, an address the chatbot already
 * has, a chatbot already full.
 */
export async function addKnowledgeSource(
  ports: KnowledgePorts,
  who: CreatorRequester,
  input: { chatbotId: string; url: string },
): Promise<KnowledgeItemRow> {
  const chatbot = await ownChatbot(ports.db, who.creatorId, input.chatbotId);
  const video = ports.sources.youtube(input.url);
  if (video.ok) return insertVideo(ports, chatbot.id, video.value, null);
  const page = ports.sources.web(input.url);
  if (!page.ok) {
    throw new DomainError('invalid', 'invalid_url', `${page.reason} (${input.url.slice(0, 200)})`);
  }
  await assertNewAddress(ports.db, chatbot.id, page.value);
  await assertKnowledgeRoom(ports.db, chatbot.id, 1);
  return knowledgeRepository(ports.db).insert({
    id: randomUUID(),
    chatbotId: chatbot.id,
    type: 'url',
    url: page.value,
  });
}

/** Adds a YouTube video by its link; the title is asked for now (a slow YouTube leaves it to the worker). */
export async function addYoutubeKnowledge(
  ports: KnowledgePorts,
  who: CreatorRequester,
  input: { chatbotId: string; youtubeUrl: string },
): Promise<KnowledgeItemRow> {
  const chatbot = await ownChatbot(ports.db, who.creatorId, input.chatbotId);
  const video = ports.sources.youtube(input.youtubeUrl);
  if (!video.ok) throw new DomainError('invalid', 'invalid_youtube_url', video.reason);
  return insertVideo(ports, chatbot.id, video.value, undefined);
}

async function insertVideo(
  ports: KnowledgePorts,
  chatbotId: string,
  video: { url: string; videoId: string },
  title: string | null | undefined,
): Promise<KnowledgeItemRow> {
  await assertNewAddress(ports.db, chatbotId, video.url);
  await assertKnowledgeRoom(ports.db, chatbotId, 1);
  const named = title === undefined ? await ports.sources.youtubeTitle(video.videoId) : title;
  return knowledgeRepository(ports.db).insert({
    id: randomUUID(),
    chatbotId,
    type: 'youtube',
    youtubeUrl: video.url,
    title: named,
  });
}

/**
 * A knowledge file, whichever way it came (a form upload, an object the browser put into the
 * store, a knowledge gap's answer): at most 10 MB, named, of the type its name claims by content
 * (pdf, txt, doc, docx). It is stored under knowledge/{chatbot}/{item} and its item inserted.
 */
export async function addKnowledgeFile(
  ports: KnowledgePorts,
  who: CreatorRequester,
  input: { chatbotId: string; bytes: Buffer; fileName: string; fansMayDownload?: boolean },
): Promise<KnowledgeItemRow> {
  const chatbot = await ownChatbot(ports.db, who.creatorId, input.chatbotId);
  if (input.bytes.length > KNOWLEDGE_FILE_MAX_BYTES) throw knowledgeFileTooLarge();
  const fileName = cleanFileName(input.fileName);
  if (!fileName) throw new DomainError('invalid', 'no_file', 'The file has no name.');
  const type = await ports.sources.fileType(input.bytes, fileName);
  if (!type.ok) throw new DomainError('invalid', 'unsupported_file', type.reason);
  await assertKnowledgeRoom(ports.db, chatbot.id, 1);
  const id = randomUUID();
  const key = `knowledge/${chatbot.id}/${id}`;
  await ports.storage.put(key, input.bytes, type.value);
  try {
    return await knowledgeRepository(ports.db).insert({
      id,
      chatbotId: chatbot.id,
      type: 'file',
      fileName,
      fileKey: key,
      fileSize: input.bytes.length,
      fansMayDownload: input.fansMayDownload === true,
    });
  } catch (err) {
    await ports.storage.remove(key).catch(() => {});
    throw err;
  }
}

/** Whether fans who were cited this file may download it whole. */
export async function updateKnowledge(
  ports: Pick<KnowledgePorts, 'db'>,
  who: CreatorRequester,
  input: { itemId: string; fansMayDownload: boolean },
): Promise<KnowledgeItemRow> {
  const item = await ownKnowledgeItem(ports.db, who.creatorId, input.itemId);
  return offerFileToFans(ports.db, item, input.fansMayDownload);
}

/** Deletes the creator's source (its chunks go with it) and its stored file, if any. */
export async function deleteKnowledge(
  ports: Pick<KnowledgePorts, 'db' | 'storage'>,
  who: CreatorRequester,
  input: { itemId: string },
  onFileLeft: (key: string, err: unknown) => void = () => {},
): Promise<{ id: string }> {
  const item = await ownKnowledgeItem(ports.db, who.creatorId, input.itemId);
  const removed = await knowledgeRepository(ports.db).remove(item.id);
  if (removed?.file_key) {
    const key = removed.file_key;
    await ports.storage.remove(key).catch((err: unknown) => onFileLeft(key, err));
  }
  return { id: item.id };
}

/** The creator's source, checked for a re-fetch before any rate is counted: failed (retry), or not busy and not a file (resync). */
export async function refetchableKnowledge(
  ports: Pick<KnowledgePorts, 'db'>,
  who: CreatorRequester,
  input: { itemId: string; how: 'retry' | 'resync' },
): Promise<KnowledgeItemRow> {
  const item = await ownKnowledgeItem(ports.db, who.creatorId, input.itemId);
  if (input.how === 'retry') assertRetryable(item);
  else assertResyncable(item);
  return item;
}

/** Puts the source back to pending under the run `runId` (retry: a failed one; resync: any not busy). */
export async function refetchKnowledge(
  ports: Pick<KnowledgePorts, 'db'>,
  who: CreatorRequester,
  input: { itemId: string; how: 'retry' | 'resync'; runId: string },
): Promise<KnowledgeItemRow> {
  const item = await refetchableKnowledge(ports, who, input);
  return requeueKnowledgeItem(
    ports.db,
    item.id,
    input.runId,
    input.how === 'retry' ? ['failed'] : ['completed', 'active', 'failed'],
  );
}

/** The creator's chatbot a file is about to be sent to: checked before the upload's bytes are read. */
export async function knowledgeTarget(
  ports: Pick<KnowledgePorts, 'db'>,
  who: CreatorRequester,
  input: { chatbotId: string },
): Promise<{ chatbotId: string }> {
  const chatbot = await ownChatbot(ports.db, who.creatorId, input.chatbotId);
  return { chatbotId: chatbot.id };
}

/**
 * Sources typed as addresses (a new chatbot's URLs): each a video or a web page, refused as
 * addKnowledgeSource refuses one; with the item each becomes once its chatbot is known.
 */
export function readSources(
  sources: KnowledgeSources,
  raws: string[],
): { address: string; item: (chatbotId: string) => NewKnowledgeItem }[] {
  return raws.map((raw) => {
    const video = sources.youtube(raw);
    if (video.ok) {
      const youtubeUrl = video.value.url;
      return {
        address: youtubeUrl,
        item: (chatbotId) => ({ id: randomUUID(), chatbotId, type: 'youtube', youtubeUrl, title: null }),
      };
    }
    const page = sources.web(raw);
    if (!page.ok) throw new DomainError('invalid', 'invalid_url', `${page.reason} (${raw.slice(0, 200)})`);
    const url = page.value;
    return { address: url, item: (chatbotId) => ({ id: randomUUID(), chatbotId, type: 'url', url }) };
  });
}
