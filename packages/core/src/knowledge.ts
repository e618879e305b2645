import type { KnowledgeItemRow } from '@fanpilot/db';
import { sql } from 'kysely';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';

const chatbotGone = () =>
  new DomainError('not_found', 'not_found', 'This chatbot no longer exists, so nothing was added to it.');

export interface NewKnowledgeItem {
  id: string;
  chatbotId: string;
  type: KnowledgeItemRow['type'];
  url?: string | null;
  youtubeUrl?: string | null;
  fileName?: string | null;
  fileKey?: string | null;
  fileSize?: number | null;
  title?: string | null;
  /** Fans who were cited this file may download it whole (files only; default false). */
  fansMayDownload?: boolean;
}

export function knowledgeRepository(db: Db) {
  return {
    findById: (id: string) =>
      db
        .selectFrom('knowledge_items')
        .innerJoin('chatbots', 'chatbots.id', 'knowledge_items.chatbot_id')
        .selectAll('knowledge_items')
        .select('chatbots.creator_id')
        .where('knowledge_items.id', '=', id)
        .executeTakeFirst(),
    listByChatbot: (chatbotId: string) =>
      db
        .selectFrom('knowledge_items')
        .selectAll()
        .where('chatbot_id', '=', chatbotId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute(),
    async count(chatbotId: string) {
      const r = await db
        .selectFrom('knowledge_items')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('chatbot_id', '=', chatbotId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Inserts a pending item whose first run is its own id. */
    insert: (item: NewKnowledgeItem) =>
      db
        .insertInto('knowledge_items')
        .values({
          id: item.id,
          chatbot_id: item.chatbotId,
          type: item.type,
          url: item.url ?? null,
          youtube_url: item.youtubeUrl ?? null,
          file_name: item.fileName ?? null,
          file_key: item.fileKey ?? null,
          file_size: item.fileSize ?? null,
          title: item.title ?? null,
          fans_may_download: item.type === 'file' && item.fansMayDownload === true,
          status: 'pending',
          job_run: item.id,
          // Not now(): items added in one transaction keep the order they were added in.
          created_at: sql<Date>`clock_timestamp()`,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
        .catch((err: unknown) => {
          // The chatbot was deleted between its owner check and this insert (a race, not a fault).
          if ((err as { code?: string }).code === '23503') throw chatbotGone();
          throw err;
        }),
    /** Puts an item back to pending under a new run (retry, re-sync). */
    requeue: (id: string, run: string, fromStatuses: KnowledgeItemRow['status'][]) =>
      db
        .updateTable('knowledge_items')
        .set({
          status: 'pending',
          error: null,
          failed_for_good: false,
          job_run: run,
          started_at: null,
          attempts: 0,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .where('status', 'in', fromStatuses)
        .returningAll()
        .executeTakeFirst(),
    /** Deletes the item (its chunks go with it, by cascade); returns what was deleted. */
    remove: (id: string) =>
      db.deleteFrom('knowledge_items').where('id', '=', id).returningAll().executeTakeFirst(),
  };
}

/** Sources one chatbot may hold. */
export const KNOWLEDGE_MAX_ITEMS = 500;

/**
 * Refuses (409 already_added) an address the chatbot already has as a page or a video (issue 29):
 * the creator re-syncs that item instead of adding a copy. Compared without a trailing slash or a
 * #fragment, which name the same page.
 */
export async function assertNewAddress(db: Db, chatbotId: string, address: string): Promise<void> {
  const same = (u: string) => u.trim().replace(/#.*$/, '').replace(/\/+$/, '').toLowerCase();
  const wanted = same(address);
  const rows = await db
    .selectFrom('knowledge_items')
    .select(['url', 'youtube_url'])
    .where('chatbot_id', '=', chatbotId)
    .where('type', '<>', 'file')
    .execute();
  if (rows.some((r) => [r.url, r.youtube_url].some((u) => u && same(u) === wanted))) {
    throw new DomainError(
      'conflict',
      'already_added',
      'This address is already in your knowledge base. Use Re-sync on it to fetch it again.',
    );
  }
}

/** Refuses (limit) adding `adding` sources to a chatbot that would then hold more than KNOWLEDGE_MAX_ITEMS. */
export async function assertKnowledgeRoom(db: Db, chatbotId: string, adding: number): Promise<void> {
  const count = await knowledgeRepository(db).count(chatbotId);
  if (count + adding > KNOWLEDGE_MAX_ITEMS) {
    throw new DomainError(
      'limit',
      'too_many_sources',
      `A chatbot can hold at most ${KNOWLEDGE_MAX_ITEMS} knowledge sources. Delete some to add more.`,
    );
  }
}

/** A knowledge source may be retried only once it failed. */
export function assertRetryable(item: Pick<KnowledgeItemRow, 'status'>): void {
  if (item.status !== 'failed') {
    throw new DomainError('conflict', 'not_failed', 'Only a failed knowledge source can be retried.');
  }
}

/** A link or video may be fetched again unless it is being processed; a file is uploaded anew instead. */
export function assertResyncable(item: Pick<KnowledgeItemRow, 'type' | 'status'>): void {
  if (item.type === 'file') {
    throw new DomainError(
      'invalid',
      'not_resyncable',
      'A file cannot be re-synced; upload the new version instead.',
    );
  }
  if (item.status === 'pending' || item.status === 'processing') {
    throw new DomainError('conflict', 'in_progress', 'This knowledge source is already being processed.');
  }
}

/**
 * Puts the item back to pending under run `runId` if its status is still one of `from`; one
 * changed meanwhile (by another request or the worker) is a conflict to reload.
 */
export async function requeueKnowledgeItem(
  db: Db,
  itemId: string,
  runId: string,
  from: KnowledgeItemRow['status'][],
): Promise<KnowledgeItemRow> {
  const updated = await knowledgeRepository(db).requeue(itemId, runId, from);
  if (!updated) {
    throw new DomainError(
      'conflict',
      'conflict',
      'This knowledge source changed meanwhile; reload and try again.',
    );
  }
  return updated;
}
