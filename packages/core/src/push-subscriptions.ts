import type { FanRow } from '@fanpilot/db';
import type { Db } from './db.ts';

export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** Fans' Web Push subscriptions: one row per fan and device. */
export function pushSubscriptions(db: Db) {
  return {
    /** Keeps a fan's subscription (a repeat from the same device updates its keys and preview). */
    save(fan: FanRow, subscription: PushSubscriptionInput, preview: boolean) {
      return db
        .insertInto('push_subscriptions')
        .values({
          creator_id: fan.creator_id,
          fan_id: fan.id,
          endpoint: subscription.endpoint,
          p256dh: subscription.keys.p256dh,
          auth: subscription.keys.auth,
          preview,
        })
        .onConflict((oc) =>
          oc.columns(['fan_id', 'endpoint']).doUpdateSet({
            p256dh: subscription.keys.p256dh,
            auth: subscription.keys.auth,
            preview,
          }),
        )
        .returning(['id'])
        .executeTakeFirstOrThrow();
    },
    remove: async (id: string) => {
      await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
    },
    /** Forgets a device by its endpoint (the browser's secret capability URL), for one creator or all. */
    async removeByEndpoint(endpoint: string, creatorId?: string): Promise<number> {
      let query = db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint);
      if (creatorId) query = query.where('creator_id', '=', creatorId);
      const removed = await query.executeTakeFirst();
      return Number(removed.numDeletedRows);
    },
    delivered: async (id: string) => {
      await db
        .updateTable('push_subscriptions')
        .set({ last_pushed_at: new Date() })
        .where('id', '=', id)
        .execute();
    },
  };
}
