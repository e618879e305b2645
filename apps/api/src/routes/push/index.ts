import type { VapidKeys } from '@fanpilot/background';
import { calls } from '@fanpilot/contracts';
import {
  checkSubscriptionKeys,
  creatorsRepository,
  pushSubscriptions,
  reachableCreator,
  subscribingFan,
} from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { networkOf, retryAfterWords } from '../../plugins/rate-limit.ts';
import { asFanOnly } from '../../services/conversations.ts';
import { fanTokenHash } from '../../services/fan-identity.ts';
import { checkPushEndpoint } from '../../services/push.ts';

export interface PushRoutesOptions {
  vapid: VapidKeys;
  /** PUSH_ALLOWED_HOSTS: push services allowed beside the browsers' own. */
  allowedHosts: string[];
  /** Subscribes per minute from one address and from one browser (its fan cookie, else the fan id). */
  subscribeLimits: { perIp: number; perFan: number };
}

/**
 * Web Push for fans: the VAPID public key, and a fan's browser subscribing (after the fan asked
 * for it with a tap) or unsubscribing. Only the browser that holds the fan's conversation may
 * subscribe for that fan; only endpoints on the browsers' push services are kept, at most
 * PUSH_SUBSCRIPTIONS_PER_BROWSER per browser and creator (packages/core), and subscribing is rate
 * limited (docs/decisions/0018-push-within-reason.md).
 */
export async function pushRoutes(app: FastifyInstance, opts: PushRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const creators = creatorsRepository(app.db);

  r.get(calls.pushKey.path, { schema: calls.pushKey.schema }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return { publicKey: opts.vapid.publicKey };
  });

  const tooMany = (seconds: number) =>
    `Too many notification subscriptions. Please wait ${retryAfterWords(seconds)} and try again.`;
  // Per address before the body is read; per browser (else per fan id) once it is.
  const perIp = app.limiter({
    name: 'push-subscribe-ip',
    max: opts.subscribeLimits.perIp,
    windowSeconds: 60,
    key: networkOf,
    message: tooMany,
  });
  const perFan = app.limiter({
    name: 'push-subscribe-fan',
    max: opts.subscribeLimits.perFan,
    windowSeconds: 60,
    key: (request) => {
      const cookie = fanTokenHash(request);
      if (cookie) return `cookie:${cookie}`;
      const body = request.body as { creator?: string; fanId?: string };
      return `fan:${String(body.creator).toLowerCase()}:${body.fanId}`;
    },
    message: tooMany,
  });

  r.post(
    calls.subscribePush.path,
    {
      onRequest: perIp,
      preHandler: perFan,
      schema: calls.subscribePush.schema,
    },
    async (request) => {
      const { creator: username, fanId, subscription } = request.body;
      const creator = reachableCreator(await creators.findByUsername(username), username);
      const fan = await subscribingFan(app.db, asFanOnly(request), creator.id, fanId);
      checkSubscriptionKeys(subscription.keys);
      await checkPushEndpoint(subscription.endpoint, opts.allowedHosts);
      const preview = request.body.preview ?? true;
      await pushSubscriptions(app.db).save(fan, subscription, preview);
      return { success: true as const, preview };
    },
  );

  r.delete(
    calls.unsubscribePush.path,
    {
      schema: calls.unsubscribePush.schema,
    },
    async (request) => {
      // The endpoint is the browser's secret capability URL: knowing it is what proves the device.
      let creatorId: string | undefined;
      if (request.body.creator) {
        const creator = await creators.findByUsername(request.body.creator);
        if (!creator) return { success: true as const, removed: 0 };
        creatorId = creator.id;
      }
      const removed = await pushSubscriptions(app.db).removeByEndpoint(request.body.endpoint, creatorId);
      return { success: true as const, removed };
    },
  );
}
