import { sql } from 'kysely';
import type { Db } from './db.ts';

export function fanTransfersRepository(db: Db) {
  return {
    /**
     * Stores a new link for this browser's conversation with a fan id, replacing the unused links it
     * made before (only the newest works), and forgets links expired for a day.
     */
    async replace(values: {
      tokenHash: string;
      creatorId: string;
      fanKey: string;
      cookieHash: string;
      expiresAt: Date;
    }) {
      await db
        .deleteFrom('fan_transfers')
        .where((eb) =>
          eb.or([
            eb.and([
              eb('fan_key', '=', values.fanKey),
              eb('cookie_hash', '=', values.cookieHash),
              eb('used_at', 'is', null),
            ]),
            eb('expires_at', '<', sql<Date>`now() - interval '1 day'`),
          ]),
        )
        .execute();
      await db
        .insertInto('fan_transfers')
        .values({
          token_hash: values.tokenHash,
          creator_id: values.creatorId,
          fan_key: values.fanKey,
          cookie_hash: values.cookieHash,
          expires_at: values.expiresAt,
        })
        .execute();
    },
    /** The link with this token hash, locked until the transaction ends. */
    lockByTokenHash: (tokenHash: string) =>
      db
        .selectFrom('fan_transfers')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .forUpdate()
        .executeTakeFirst(),
    async markUsed(id: string) {
      await db.updateTable('fan_transfers').set({ used_at: new Date() }).where('id', '=', id).execute();
    },
  };
}
