import type { StoredSource } from '@fanpilot/contracts';
import { AI_SENDER } from '@fanpilot/contracts';
import type { MessageRow } from '@fanpilot/db';
import { fanNameOf } from './conversations/fan-name.ts';
import type { Db } from './db.ts';

/** A message with what its JSON needs: the fan's id and its attachment. */
export interface MessageView {
  id: string;
  sender: MessageRow['sender'];
  body: string;
  status: MessageRow['status'];
  replyTo: string | null;
  fanName: string | null;
  sources: StoredSource[] | null;
  createdAt: Date;
  /** The AI gave up on this pending question; the creator answers it. */
  handedToCreator: boolean;
  /** The fan's rating of this AI answer, when rated. */
  rating: { rating: 'up' | 'down'; comment: string | null } | null;
  fanKey: string | null;
  /** The Idempotency-Key the fan's app asked this question with (its local id for it), if any. */
  clientKey?: string | null;
  attachment: {
    id: string;
    fileType: 'pdf' | 'image' | 'other';
    originalFilename: string;
    fileSize: number;
  } | null;
}

function views(db: Db) {
  return db
    .selectFrom('messages as m')
    .leftJoin('fans as f', 'f.id', 'm.fan_id')
    .leftJoin('file_attachments as a', 'a.message_id', 'm.id')
    .select([
      'm.id',
      'm.sender',
      'm.body',
      'm.status',
      'm.reply_to',
      'm.fan_name',
      'm.sources',
      'm.created_at',
      'm.ai_handed_over_at',
      'm.fan_rating',
      'm.fan_rating_comment',
      'm.creator_id',
      'm.client_key',
      'f.fan_key',
      'f.name as fan_current_name',
      'a.id as attachment_id',
      'a.file_type',
      'a.original_filename',
      'a.file_size',
    ]);
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof views>['execute']>>[number];

function toView(r: ViewRow): MessageView {
  return {
    id: String(r.id),
    sender: r.sender,
    body: r.body,
    status: r.status,
    replyTo: r.reply_to === null ? null : String(r.reply_to),
    // The fan's one name (fanNameOf), as it is now; the name stored with the message only where the
    // fan row is gone.
    fanName: r.fan_key ? fanNameOf({ name: r.fan_current_name, fan_key: r.fan_key }) : r.fan_name,
    sources: r.sources,
    createdAt: new Date(r.created_at),
    handedToCreator: r.ai_handed_over_at !== null && r.status === 'pending',
    rating: r.fan_rating ? { rating: r.fan_rating, comment: r.fan_rating_comment } : null,
    fanKey: r.fan_key,
    clientKey: r.client_key,
    attachment:
      r.attachment_id && r.file_type && r.original_filename !== null && r.file_size !== null
        ? {
            id: r.attachment_id,
            fileType: r.file_type,
            originalFilename: r.original_filename,
            fileSize: r.file_size,
          }
        : null,
  };
}

export interface NewMessage {
  creatorId: string;
  fanRowId: string | null;
  sender: MessageRow['sender'];
  body: string;
  status: MessageRow['status'];
  replyTo: string | null;
  fanName: string | null;
}

function toRow(values: NewMessage) {
  return {
    creator_id: values.creatorId,
    fan_id: values.fanRowId,
    sender: values.sender,
    body: values.body,
    status: values.status,
    reply_to: values.replyTo,
    fan_name: values.fanName,
  };
}

export function messagesRepository(db: Db) {
  return {
    async findView(id: string): Promise<MessageView | undefined> {
      const row = await views(db).where('m.id', '=', id).executeTakeFirst();
      return row ? toView(row) : undefined;
    },
    /** These messages (in no particular order). */
    async viewsByIds(ids: readonly string[]): Promise<MessageView[]> {
      if (ids.length === 0) return [];
      return (
        await views(db)
          .where('m.id', 'in', [...ids])
          .execute()
      ).map(toView);
    },
    /** The creator's latest messages, newest first. */
    async latestForCreator(creatorId: string, limit: number): Promise<MessageView[]> {
      const rows = await views(db)
        .where('m.creator_id', '=', creatorId)
        .orderBy('m.created_at', 'desc')
        .orderBy('m.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toView);
    },
    /** The latest `limit` messages of these fan conversations, oldest first. */
    async conversation(fanRowIds: string[], limit: number): Promise<MessageView[]> {
      if (fanRowIds.length === 0) return [];
      const rows = await views(db)
        .where('m.fan_id', 'in', fanRowIds)
        .orderBy('m.created_at', 'desc')
        .orderBy('m.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toView).reverse();
    },
    async insert(values: NewMessage): Promise<string> {
      const row = await db
        .insertInto('messages')
        .values(toRow(values))
        .returning('id')
        .executeTakeFirstOrThrow();
      return String(row.id);
    },
    /**
     * Inserts a fan's question under the Idempotency-Key its page sent; undefined, and nothing
     * stored, when this fan already has a message with that key (the unique index decides, also
     * between concurrent requests: the later one waits for the earlier one's transaction).
     */
    async insertKeyed(values: NewMessage & { clientKey: string }): Promise<string | undefined> {
      const row = await db
        .insertInto('messages')
        .values({ ...toRow(values), client_key: values.clientKey })
        .onConflict((oc) =>
          oc.columns(['fan_id', 'client_key']).where('client_key', 'is not', null).doNothing(),
        )
        .returning('id')
        .executeTakeFirst();
      return row ? String(row.id) : undefined;
    },
    /** The fan's message stored under this Idempotency-Key; with `since`, only one stored since then. */
    async findByClientKey(
      fanRowId: string,
      clientKey: string,
      since?: Date,
    ): Promise<MessageView | undefined> {
      let query = views(db).where('m.fan_id', '=', fanRowId).where('m.client_key', '=', clientKey);
      if (since) query = query.where('m.created_at', '>=', since);
      const row = await query.executeTakeFirst();
      return row ? toView(row) : undefined;
    },
    /** Frees a fan's Idempotency-Key held by a message stored before `before`, so it can be used again. */
    async releaseClientKey(fanRowId: string, clientKey: string, before: Date) {
      await db
        .updateTable('messages')
        .set({ client_key: null })
        .where('fan_id', '=', fanRowId)
        .where('client_key', '=', clientKey)
        .where('created_at', '<', before)
        .execute();
    },
    /** Whether the AI has answered this question. */
    async hasAiReply(id: string): Promise<boolean> {
      const row = await db
        .selectFrom('messages')
        .select('id')
        .where('reply_to', '=', id)
        .where('sender', '=', AI_SENDER)
        .executeTakeFirst();
      return row !== undefined;
    },
    async countForFan(fanRowId: string): Promise<number> {
      const row = await db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('fan_id', '=', fanRowId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** Deletes the messages of an anonymous fan (no fan id), known by name alone; returns how many. */
    async removeAnonymous(creatorId: string, fanName: string): Promise<number> {
      const rows = await db
        .deleteFrom('messages')
        .where('creator_id', '=', creatorId)
        .where('fan_id', 'is', null)
        .where('fan_name', '=', fanName)
        .returning('id')
        .execute();
      return rows.length;
    },
  };
}
