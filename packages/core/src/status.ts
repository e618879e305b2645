import { DEFAULT_STATUS_TEXT_OFFLINE, DEFAULT_STATUS_TEXT_ONLINE } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';

type Db = Kysely<Database>;

export function statusRepository(db: Db) {
  return {
    /** Flips Online/Offline atomically and resets the status text to match. */
    toggle: (creatorId: string) =>
      db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('creators')
          .select('is_online')
          .where('id', '=', creatorId)
          .forNoKeyUpdate()
          .executeTakeFirstOrThrow();
        const isOnline = !current.is_online;
        return trx
          .updateTable('creators')
          .set({
            is_online: isOnline,
            status_text: isOnline ? DEFAULT_STATUS_TEXT_ONLINE : DEFAULT_STATUS_TEXT_OFFLINE,
            updated_at: new Date(),
          })
          .where('id', '=', creatorId)
          .returning(['is_online', 'status_text'])
          .executeTakeFirstOrThrow();
      }),
  };
}
