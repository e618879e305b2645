import { fanNameOf } from './conversations/fan-name.ts';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';

export interface FanStats {
  fanKey: string;
  name: string | null;
  messageCount: number;
  pendingCount: number;
  lastMessageTime: Date | null;
  createdAt: Date;
}

export function fansRepository(db: Db) {
  return {
    findByKey: (creatorId: string, fanKey: string) =>
      db
        .selectFrom('fans')
        .selectAll()
        .where('creator_id', '=', creatorId)
        .where('fan_key', '=', fanKey)
        .executeTakeFirst(),
    /** Every conversation this fan id has, with any creator. */
    findAllByKey: (fanKey: string) =>
      db
        .selectFrom('fans')
        .selectAll()
        .where('fan_key', '=', fanKey)
        .orderBy('last_seen_at', 'desc')
        .execute(),
    /**
     * Binds every conversation of this fan id held by the browser `fromHash` to the browser
     * `toHash` (a transfer link redeemed); returns how many moved.
     */
    async moveToBrowser(fanKey: string, fromHash: string, toHash: string): Promise<number> {
      const result = await db
        .updateTable('fans')
        .set({ cookie_hash: toHash })
        .where('fan_key', '=', fanKey)
        .where('cookie_hash', '=', fromHash)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    /** Creates the fan bound to `cookieHash`, or returns the row that already exists (bound or not). */
    async insertOrGet(values: {
      creatorId: string;
      fanKey: string;
      name: string | null;
      cookieHash: string;
      /** The site whose widget the conversation begins on (null: the fan app). */
      widgetSite?: string | null;
    }) {
      await db
        .insertInto('fans')
        .values({
          creator_id: values.creatorId,
          fan_key: values.fanKey,
          name: values.name,
          cookie_hash: values.cookieHash,
          widget_site: values.widgetSite ?? null,
        })
        .onConflict((oc) => oc.columns(['creator_id', 'fan_key']).doNothing())
        .execute();
      return db
        .selectFrom('fans')
        .selectAll()
        .where('creator_id', '=', values.creatorId)
        .where('fan_key', '=', values.fanKey)
        .executeTakeFirstOrThrow();
    },
    /** Binds a fan made before cookies to this browser; the first browser to ask wins. */
    async bindIfUnbound(id: string, cookieHash: string) {
      await db
        .updateTable('fans')
        .set({ cookie_hash: cookieHash })
        .where('id', '=', id)
        .where('cookie_hash', 'is', null)
        .execute();
      return db.selectFrom('fans').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    },
    async touch(id: string, name: string | undefined) {
      await db
        .updateTable('fans')
        .set({ last_seen_at: new Date(), ...(name ? { name } : {}) })
        .where('id', '=', id)
        .execute();
    },
    async countForCreator(creatorId: string): Promise<number> {
      const row = await db
        .selectFrom('fans')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('creator_id', '=', creatorId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /**
     * The creator's fans with their conversation counts, latest message first (fans without one
     * last, newest first): the counters a trigger keeps on each fan's row.
     */
    async listWithStats(creatorId: string): Promise<FanStats[]> {
      const rows = await db
        .selectFrom('fans')
        .select(['fan_key', 'name', 'created_at', 'message_count', 'pending_count', 'last_message_at'])
        .where('creator_id', '=', creatorId)
        .orderBy('last_message_at', (ob) => ob.desc().nullsLast())
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((r) => ({
        fanKey: r.fan_key,
        name: fanNameOf(r),
        messageCount: r.message_count,
        pendingCount: r.pending_count,
        lastMessageTime: r.last_message_at ? new Date(r.last_message_at) : null,
        createdAt: new Date(r.created_at),
      }));
    },
    async remove(id: string) {
      await db.deleteFrom('fans').where('id', '=', id).execute();
    },
  };
}

/** The creator's fans among `fanIds` (others' are left out). */
export async function fansByIds(db: Db, creatorId: string, fanIds: string[]) {
  if (fanIds.length === 0) return [];
  return db
    .selectFrom('fans')
    .selectAll()
    .where('creator_id', '=', creatorId)
    .where('id', 'in', fanIds)
    .execute();
}

/** The creator's fan by fan id: not found when the creator has no such fan. */
export async function creatorsFan(db: Db, creatorId: string, fanKey: string) {
  const fan = await fansRepository(db).findByKey(creatorId, fanKey);
  if (!fan || fan.creator_id !== creatorId) {
    throw new DomainError('not_found', 'not_found', 'Cannot find fan ID. Please try again.');
  }
  return fan;
}

/** A fan's conversation as the rights need it (row id, creator, bound cookie), or undefined. */
export async function fanBindingOf(
  db: Db,
  creatorId: string,
  fanKey: string,
): Promise<{ id: string; creatorId: string; cookieHash: string | null } | undefined> {
  const row = await db
    .selectFrom('fans')
    .select(['id', 'creator_id', 'cookie_hash'])
    .where('creator_id', '=', creatorId)
    .where('fan_key', '=', fanKey)
    .executeTakeFirst();
  return row ? { id: row.id, creatorId: row.creator_id, cookieHash: row.cookie_hash } : undefined;
}
