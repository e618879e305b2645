import { AI_SENDER, isFileCitation, isUuid, type StoredSource } from '@fanpilot/contracts';
import type { FanRow, KnowledgeItemRow } from '@fanpilot/db';
import { sql } from 'kysely';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
import { type FanRequester, requireFanAccess } from './rights.ts';

// A creator's files are theirs (docs/decisions/0019-a-creator-s-files-are-theirs.md): a citation of a file gives the fan it was given
// to the passage the answer quoted, and the file itself only where the creator allows downloads.

/** An AI answer, with the conversation (fan row) it belongs to. */
export interface CitingMessage {
  id: string;
  creatorId: string;
  sources: StoredSource[];
  fan: Pick<FanRow, 'id' | 'fan_key' | 'creator_id' | 'cookie_hash'>;
}

/** The AI answer `messageId` of the fan `fanKey`, or undefined (no such answer in that fan's chat). */
export async function findCitingMessage(
  db: Db,
  fanKey: string,
  messageId: string,
): Promise<CitingMessage | undefined> {
  const row = await db
    .selectFrom('messages as m')
    .innerJoin('fans as f', 'f.id', 'm.fan_id')
    .select(['m.id', 'm.creator_id', 'm.sources', 'f.id as fan_row_id', 'f.fan_key', 'f.cookie_hash'])
    .where('m.id', '=', messageId)
    .where('m.sender', '=', AI_SENDER)
    .where('f.fan_key', '=', fanKey)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: String(row.id),
    creatorId: row.creator_id,
    sources: (row.sources ?? []) as StoredSource[],
    fan: {
      id: row.fan_row_id,
      fan_key: row.fan_key,
      creator_id: row.creator_id,
      cookie_hash: row.cookie_hash,
    },
  };
}

/** A cited file, as the passage viewer and its download need it. */
export type CitedFile = Pick<
  KnowledgeItemRow,
  'id' | 'title' | 'file_name' | 'file_key' | 'fans_may_download' | 'download_epoch' | 'status'
>;

/** A passage an answer cited from a file, with the file it came from. */
export interface CitedPassage {
  file: CitedFile;
  title: string;
  source: string;
  page: number | null;
  text: string;
}

/** The item id in an address answers carried before passages were stored (/api/public/knowledge/{id}/file). */
const LEGACY_FILE_URL = /^\/api\/public\/knowledge\/([^/#?]+)\/file/;

function citedItemId(source: StoredSource): string | undefined {
  if (source.itemId) return source.itemId;
  const legacy = source.url ? LEGACY_FILE_URL.exec(source.url)?.[1] : undefined;
  return legacy ? decodeURIComponent(legacy) : undefined;
}

const gone = () => new DomainError('not_found', 'not_found', 'This source is no longer available.');

/**
 * Citation `n` (from 0) of `message`, when it is a passage of one of the creator's files that still
 * exists. Answers from before passages were stored give the item's first passage on the cited page.
 * Anything else (no such citation, a web page or a video, a file since deleted) is not found.
 */
export async function citedPassage(db: Db, message: CitingMessage, n: number): Promise<CitedPassage> {
  const source = message.sources[n];
  if (!source || !isFileCitation(source)) {
    throw new DomainError('not_found', 'not_found', 'This answer has no such file citation.');
  }
  const itemId = citedItemId(source);
  if (!itemId || !isUuid(itemId)) throw gone();
  const file = await db
    .selectFrom('knowledge_items as k')
    .innerJoin('chatbots as c', 'c.id', 'k.chatbot_id')
    .select([
      'k.id',
      'k.title',
      'k.file_name',
      'k.file_key',
      'k.fans_may_download',
      'k.download_epoch',
      'k.status',
    ])
    .where('k.id', '=', itemId)
    .where('k.type', '=', 'file')
    .where('c.creator_id', '=', message.creatorId)
    .executeTakeFirst();
  if (!file) throw gone();
  const page = typeof source.page === 'number' ? source.page : null;
  const text = source.passage ?? (await firstPassage(db, file.id, page));
  if (!text) throw gone();
  return { file, title: source.title, source: file.file_name ?? source.source, page, text };
}

/** The item's first chunk (on `page`, when given): the passage of an answer that stored none. */
async function firstPassage(db: Db, itemId: string, page: number | null): Promise<string | undefined> {
  let query = db
    .selectFrom('chunks')
    .select('content')
    .where('knowledge_item_id', '=', itemId)
    .orderBy('ordinal', 'asc')
    .limit(1);
  if (page !== null) query = query.where(sql<boolean>`(metadata->>'page') = ${String(page)}`);
  return (await query.executeTakeFirst())?.content;
}

/** A knowledge file fans may download now (the creator allows it), or not found. */
export async function downloadableFile(db: Db, itemId: string): Promise<CitedFile & { file_key: string }> {
  const file = isUuid(itemId)
    ? await db
        .selectFrom('knowledge_items')
        .select(['id', 'title', 'file_name', 'file_key', 'fans_may_download', 'download_epoch', 'status'])
        .where('id', '=', itemId)
        .where('type', '=', 'file')
        .executeTakeFirst()
    : undefined;
  if (!file?.file_key) throw gone();
  if (!file.fans_may_download) {
    throw new DomainError(
      'forbidden',
      'download_not_allowed',
      'The creator does not allow downloads of this file.',
    );
  }
  return { ...file, file_key: file.file_key };
}

/**
 * The download epoch of a knowledge file, or not found (a file deleted since the link was issued):
 * every download link is signed with it, and a switch-off of downloads raises it, so the links
 * issued before it stay dead even once downloads are switched on again (record 0071).
 */
export async function downloadEpochOf(db: Db, itemId: string): Promise<number> {
  if (!isUuid(itemId)) throw gone();
  const row = await db
    .selectFrom('knowledge_items')
    .select('download_epoch')
    .where('id', '=', itemId)
    .where('type', '=', 'file')
    .executeTakeFirst();
  if (!row) throw gone();
  return row.download_epoch;
}

/**
 * Lets fans who were cited a file download it whole, or stops it: a stop also ends every link
 * issued so far (the download epoch goes up). Returns the item, or undefined.
 */
export function setFansMayDownload(db: Db, itemId: string, allowed: boolean) {
  return db
    .updateTable('knowledge_items')
    .set((eb) => ({
      fans_may_download: allowed,
      updated_at: new Date(),
      ...(allowed ? {} : { download_epoch: eb('download_epoch', '+', 1) }),
    }))
    .where('id', '=', itemId)
    .where('type', '=', 'file')
    .returningAll()
    .executeTakeFirst();
}

/**
 * The AI answer `messageId` of the fan `fanKey` as `who` may read it: not found when that fan's
 * chat has no such answer, refused by the chat log's rule (this fan's browser, or the creator it
 * talks to).
 */
export async function readableCitingMessage(
  db: Db,
  who: FanRequester,
  fanKey: string,
  messageId: string,
): Promise<CitingMessage> {
  const message = await findCitingMessage(db, fanKey, messageId);
  if (!message) throw new DomainError('not_found', 'not_found', 'This answer was not found.');
  requireFanAccess(who, message.fan, 'read');
  return message;
}

/**
 * Whether fans may download the knowledge file `item` (the creator's own, checked by the caller):
 * only a file can be offered, and one deleted meanwhile is not found.
 */
export async function offerFileToFans(db: Db, item: KnowledgeItemRow, allowed: boolean) {
  if (item.type !== 'file') {
    throw new DomainError('invalid', 'not_a_file', 'Only a file can be offered for download.');
  }
  const updated = await setFansMayDownload(db, item.id, allowed);
  if (!updated) throw new DomainError('not_found', 'not_found', 'This knowledge source was deleted.');
  return updated;
}
