import { calls } from '@fanpilot/contracts';
import { creatorsRepository, fansRepository, pushSubscriptions } from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forbidden, notFound } from '../../errors.ts';
import { asFanOnly, mayActAsFan } from '../../services/conversations.ts';
import { checkPushEndpoint, checkSubscriptionKeys, type VapidKeys } from '../../services/push.ts';

export interface PushRoutesOptions {
  vapid: VapidKeys;
  allowedPrivateHosts: string[];
}

/**
 * Web Push for fans: the VAPID public key, and a fan's browser subscribing (after the fan asked
 * for it with a tap) or unsubscribing. Only the browser that holds the fan's conversation may
 * subscribe for that fan.
 */
export async function pushRoutes(app: FastifyInstance, opts: PushRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const creators = creatorsRepository(app.db);
  const fans = fansRepository(app.db);

  r.get(calls.pushKey.path, { schema: calls.pushKey.schema }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return { publicKey: opts.vapid.publicKey };
  });

  r.post(
    calls.subscribePush.path,
    {
      schema: calls.subscribePush.schema,
    },
    async (request) => {
      const { creator: username, fanId, subscription } = request.body;
      const creator = await creators.findByUsername(username);
      if (!creator?.onboarding_complete) throw notFound(`No creator is called '${username}'.`);
      const fan = await fans.findByKey(creator.id, fanId);
      if (!fan) throw notFound('Ask a question first; then you can be told when it is answered.');
      if (!mayActAsFan(asFanOnly(request), fan, 'write')) throw forbidden();
      checkSubscriptionKeys(subscription.keys);
      await checkPushEndpoint(subscription.endpoint, opts.allowedPrivateHosts);
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
