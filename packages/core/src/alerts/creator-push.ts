import type { Db } from '../db.ts';
import type { PushSubscriptionInput } from '../push-subscriptions.ts';

/** Browsers one creator may have alerts pushed to; the oldest is let go for a new one. */
export const CREATOR_PUSH_DEVICES = 10;

/** Alert pushes to the creator's own browsers (the dashboard offers them, record 0061). */
export function creatorPushSubscriptions(db: Db) {
  const count = async (creatorId: string) =>
    Number(
      (
        await db
          .selectFrom('creator_push_subscriptions')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('creator_id', '=', creatorId)
          .executeTakeFirst()
      )?.n ?? 0,
    );
  return {
    count,
    /** Saves this browser (again: its keys are updated); keeps the newest CREATOR_PUSH_DEVICES. */
    async save(creatorId: string, subscription: PushSubscriptionInput): Promise<number> {
      await db
        .insertInto('creator_push_subscriptions')
        .values({
          creator_id: creatorId,
          endpoint: subscription.endpoint,
          p256dh: subscription.keys.p256dh,
          auth: subscription.keys.auth,
        })
        .onConflict((oc) =>
          oc.columns(['creator_id', 'endpoint']).doUpdateSet({
            p256dh: subscription.keys.p256dh,
            auth: subscription.keys.auth,
          }),
        )
        .execute();
      const keep = db
        .selectFrom('creator_push_subscriptions')
        .select('id')
        .where('creator_id', '=', creatorId)
        .orderBy('created_at', 'desc')
        .limit(CREATOR_PUSH_DEVICES);
      await db
        .deleteFrom('creator_push_subscriptions')
        .where('creator_id', '=', creatorId)
        .where('id', 'not in', keep)
        .execute();
      return count(creatorId);
    },
    async removeByEndpoint(creatorId: string, endpoint: string): Promise<number> {
      await db
        .deleteFrom('creator_push_subscriptions')
        .where('creator_id', '=', creatorId)
        .where('endpoint', '=', endpoint)
        .execute();
      return count(creatorId);
    },
    remove: async (id: string) => {
      await db.deleteFrom('creator_push_subscriptions').where('id', '=', id).execute();
    },
    find: (id: string) =>
      db.selectFrom('creator_push_subscriptions').selectAll().where('id', '=', id).executeTakeFirst(),
    /** The devices an alert group goes to: its creator's browsers. */
    async recipients(batchId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('creator_push_subscriptions as s')
        .innerJoin('creator_alert_batches as b', 'b.creator_id', 's.creator_id')
        .select('s.id')
        .where('b.id', '=', batchId)
        .execute();
      return rows.map((r) => r.id);
    },
    /** The one push of this group to this browser: true the first time only. */
    async claim(subscriptionId: string, batchId: string): Promise<boolean> {
      const claimed = await db
        .insertInto('creator_push_deliveries')
        .values({ subscription_id: subscriptionId, batch_id: batchId })
        .onConflict((oc) => oc.columns(['subscription_id', 'batch_id']).doNothing())
        .returning('subscription_id')
        .executeTakeFirst();
      return claimed !== undefined;
    },
    release: async (subscriptionId: string, batchId: string) => {
      await db
        .deleteFrom('creator_push_deliveries')
        .where('subscription_id', '=', subscriptionId)
        .where('batch_id', '=', batchId)
        .execute();
    },
    delivered: async (id: string) => {
      await db
        .updateTable('creator_push_subscriptions')
        .set({ last_pushed_at: new Date() })
        .where('id', '=', id)
        .execute();
    },
  };
}
