import type { FanRow } from '@fanpilot/db';
import { sql } from 'kysely';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
import { fansRepository } from './fans.ts';
import { type FanRequester, requireFanAccess } from './rights.ts';

export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * How many push subscriptions one browser (its fan cookie) keeps per creator. A browser has one
 * endpoint per service worker; a few cover a renewed subscription and an installed app beside the
 * tab. Subscribing past it replaces the oldest (docs/decisions/0018-push-within-reason.md).
 */
export const PUSH_SUBSCRIPTIONS_PER_BROWSER = 3;

/**
 * The browsers' push services: an endpoint's host must be one of these (or listed in
 * PUSH_ALLOWED_HOSTS), so the api never POSTs anywhere else. Exact hosts, and domains whose
 * subdomains all belong to the service.
 */
export const KNOWN_PUSH_SERVICE_HOSTS: readonly string[] = [
  // Chrome, Edge, Opera, Samsung Internet…: Firebase Cloud Messaging.
  'fcm.googleapis.com',
  // Firefox: Mozilla autopush.
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
];
export const KNOWN_PUSH_SERVICE_DOMAINS: readonly string[] = [
  // Safari (web.push.apple.com).
  'push.apple.com',
  // Windows Push Notification Services (legacy Edge: *.notify.windows.com).
  'notify.windows.com',
];

const notAllowed = (message: string) => new DomainError('invalid', 'push_endpoint_not_allowed', message);

/**
 * Whether the api may POST to this push endpoint: an https URL on the default port of a known push
 * service, or any URL (http too) whose host or host:port `allowedHosts` lists. Throws DomainError
 * `push_endpoint_not_allowed` (400) otherwise. Returns whether it matched `allowedHosts` (those
 * may be on private addresses; the rest must resolve to public ones, which the caller checks).
 */
export function checkPushServiceHost(endpoint: string, allowedHosts: readonly string[]): { listed: boolean } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new DomainError(
      'invalid',
      'invalid_subscription',
      'The push subscription endpoint is not a valid URL.',
    );
  }
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');
  const listed = allowedHosts.some((h) => {
    const entry = h.toLowerCase();
    return entry === host || entry === url.host.toLowerCase();
  });
  if (url.username || url.password) {
    throw notAllowed('A push subscription endpoint cannot carry a user name or password.');
  }
  if (listed && (url.protocol === 'https:' || url.protocol === 'http:')) return { listed: true };
  if (url.protocol !== 'https:') throw notAllowed('A push subscription endpoint must be an https:// URL.');
  const known =
    KNOWN_PUSH_SERVICE_HOSTS.includes(host) ||
    KNOWN_PUSH_SERVICE_DOMAINS.some((domain) => host.endsWith(`.${domain}`));
  if (!known || url.port !== '') {
    throw notAllowed(
      `Push notifications are sent only through the browsers' push services (Google, Mozilla, Apple, Microsoft); ${host}${url.port ? `:${url.port}` : ''} is not one of them.`,
    );
  }
  return { listed: false };
}

/** Fans' Web Push subscriptions: one row per creator and device (endpoint), a few per browser. */
export function pushSubscriptions(db: Db) {
  return {
    /**
     * Keeps a fan's subscription, in one transaction. The same endpoint for this creator is the
     * same device: its row is updated (keys, preview, the fan it now belongs to), never doubled.
     * Then the browser's subscriptions to this creator past PUSH_SUBSCRIPTIONS_PER_BROWSER are
     * deleted, oldest first. The rows of the browser's fans are locked first, so subscribes that
     * race wait for each other and never leave more than the cap.
     */
    async save(
      fan: FanRow,
      subscription: PushSubscriptionInput,
      preview: boolean,
    ): Promise<{ id: string; replaced: number }> {
      const run = async (trx: Db) => {
        // The browser's fans of this creator (the fan alone when it has no cookie), locked in one
        // order. Every subscribe of this browser locks at least its earliest fan, so they queue.
        let browserFans = trx
          .selectFrom('fans')
          .select('id')
          .where('creator_id', '=', fan.creator_id)
          .orderBy('id')
          .forUpdate();
        browserFans =
          fan.cookie_hash === null
            ? browserFans.where('id', '=', fan.id)
            : browserFans.where('cookie_hash', '=', fan.cookie_hash);
        const fanIds = (await browserFans.execute()).map((f) => f.id);
        if (!fanIds.includes(fan.id)) fanIds.push(fan.id);
        const saved = await trx
          .insertInto('push_subscriptions')
          .values({
            creator_id: fan.creator_id,
            fan_id: fan.id,
            endpoint: subscription.endpoint,
            p256dh: subscription.keys.p256dh,
            auth: subscription.keys.auth,
            preview,
            // The time of this statement, after the locks: racing subscribes keep their order.
            subscribed_at: sql<Date>`clock_timestamp()`,
          })
          .onConflict((oc) =>
            oc.columns(['creator_id', 'endpoint']).doUpdateSet({
              fan_id: fan.id,
              p256dh: subscription.keys.p256dh,
              auth: subscription.keys.auth,
              preview,
              subscribed_at: sql<Date>`clock_timestamp()`,
            }),
          )
          .returning(['id'])
          .executeTakeFirstOrThrow();
        const kept = trx
          .selectFrom('push_subscriptions')
          .select('id')
          .where('creator_id', '=', fan.creator_id)
          .where('fan_id', 'in', fanIds)
          .orderBy('subscribed_at', 'desc')
          .orderBy('id', 'desc')
          .limit(PUSH_SUBSCRIPTIONS_PER_BROWSER);
        const replaced = await trx
          .deleteFrom('push_subscriptions')
          .where('creator_id', '=', fan.creator_id)
          .where('fan_id', 'in', fanIds)
          .where('id', 'not in', kept)
          .executeTakeFirst();
        return { id: saved.id, replaced: Number(replaced.numDeletedRows) };
      };
      return db.isTransaction ? run(db) : db.transaction().execute(run);
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
    /**
     * Claims the one push of this message or announcement to this device: true for the first
     * claim, false ever after (a repeated trigger, a second process). Also forgets this device's
     * claims older than a week (no trigger repeats that late).
     */
    async claimDelivery(subscriptionId: string, kind: string, refId: string): Promise<boolean> {
      await db
        .deleteFrom('push_deliveries')
        .where('subscription_id', '=', subscriptionId)
        .where('claimed_at', '<', sql<Date>`now() - interval '7 days'`)
        .execute();
      const claimed = await db
        .insertInto('push_deliveries')
        .values({ subscription_id: subscriptionId, kind, ref_id: refId })
        .onConflict((oc) => oc.columns(['subscription_id', 'kind', 'ref_id']).doNothing())
        .returning('subscription_id')
        .executeTakeFirst();
      return claimed !== undefined;
    },
    /** Gives a claim back: the push did not reach the service and will be tried again. */
    releaseDelivery: async (subscriptionId: string, kind: string, refId: string) => {
      await db
        .deleteFrom('push_deliveries')
        .where('subscription_id', '=', subscriptionId)
        .where('kind', '=', kind)
        .where('ref_id', '=', refId)
        .execute();
    },
  };
}

/**
 * The conversation a browser subscribes to pushes for: the fan must have asked first (until then
 * there is nothing to be told about), and only the browser the conversation is bound to may.
 */
export async function subscribingFan(db: Db, who: FanRequester, creatorId: string, fanKey: string) {
  const fan = await fansRepository(db).findByKey(creatorId, fanKey);
  if (!fan) {
    throw new DomainError(
      'not_found',
      'not_found',
      'Ask a question first; then you can be told when it is answered.',
    );
  }
  return requireFanAccess(who, fan, 'write', 'You can only act on your own account.');
}

/** Checks the subscription's keys the way web-push will use them (a P-256 point, a 16-byte secret). */
export function checkSubscriptionKeys(keys: PushSubscriptionInput['keys']) {
  const p256dh = Buffer.from(keys.p256dh, 'base64url');
  const auth = Buffer.from(keys.auth, 'base64url');
  if (p256dh.length !== 65 || p256dh[0] !== 0x04) {
    throw new DomainError(
      'invalid',
      'invalid_subscription',
      'The subscription key p256dh is not an uncompressed P-256 public key.',
    );
  }
  if (auth.length !== 16) {
    throw new DomainError('invalid', 'invalid_subscription', 'The subscription secret auth is not 16 bytes.');
  }
}
