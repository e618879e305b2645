import {
  calls,
  FAN_PLAN_PRESETS_CENTS,
  RESTORE_LINK_SENT_MESSAGE,
  RESTORE_REQUESTS_PER_ADDRESS_PER_HOUR,
} from '@fanpilot/contracts';
import {
  assertFanPaymentsOn,
  assertMailOn,
  captureFanLead,
  earningsOf,
  type FanPlanCard,
  fanPlanStateOf,
  findReachableCreator,
  hashToken,
  leadsCsv,
  ownFan,
  readFanPlanSettings,
  readFanPlanState,
  redeemRestoreLink,
  requestRestoreLink,
  takeRestoreRequest,
  updateFanPlanSettings,
} from '@fanpilot/core';
import type { CreatorRow } from '@fanpilot/db';
import type { Mailer } from '@fanpilot/mail';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError } from '../../errors.ts';
import { fanReadLimiter, networkOf, retryAfterWords } from '../../plugins/rate-limit.ts';
import { objectUrl } from '../../serializers.ts';
import { fanStripe, type Payments } from '../../services/billing.ts';
import { asFanOnly } from '../../services/conversations.ts';
import { ensureFanToken } from '../../services/fan-identity.ts';
import {
  confirmFanCheckout,
  connectPayouts,
  fanPortal,
  payoutsReport,
  refreshPayouts,
  startFanCheckout,
} from '../../services/fan-payments.ts';

export interface FanPlansRoutesOptions {
  payments: Payments;
  mailer: Pick<Mailer, 'mode'>;
  publicOrigin: string;
  secureCookie: boolean;
  fanReadsPerIpPerMinute: number;
}

/** Restore links one address may open in ten minutes. */
const RESTORE_LIMIT = { max: 10, windowSeconds: 10 * 60 };

/**
 * Fans pay their creator (record 0043): the creator's plan, payouts and earnings; a fan's plan
 * state, Checkout, its return, the customer portal, restore links by email and lead capture.
 * Rules are core's; this file asks Stripe (services/fan-payments.ts) and maps input and errors.
 */
export async function fanPlansRoutes(app: FastifyInstance, opts: FanPlansRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { payments } = opts;
  const stripe = fanStripe(payments);
  // 'test': the local Stripe stand-in of `pnpm start` without keys (no real money).
  const mode: 'stripe' | 'test' | 'off' = payments.stripe ? 'stripe' : stripe ? 'test' : 'off';
  const onboarded = (username: string): Promise<CreatorRow> => findReachableCreator(app.db, username);
  /** Stripe is needed for this call: without it fan subscriptions are off (502 would mislead). */
  const needStripe = (): NonNullable<typeof stripe> => {
    assertFanPaymentsOn(stripe !== null);
    return stripe!;
  };
  const planResponse = ({ plan, payouts, live }: FanPlanCard) => ({
    plan,
    payouts,
    paymentsMode: mode,
    feePercent: payments.feePercent,
    presetsCents: [...FAN_PLAN_PRESETS_CENTS],
    live,
  });
  const ports = { db: app.db, imageUrl: objectUrl };
  const restoreWords = (seconds: number) =>
    `Too many restore links. Please wait ${retryAfterWords(seconds)} and try again.`;
  const restoreLimit = app.limiter({
    name: 'fan-restore-ip',
    ...RESTORE_LIMIT,
    key: networkOf,
    message: restoreWords,
  });
  // Asking for a restore mail (record 0071): per address (an IPv6 /64) here, per email in core.
  const restoreMailLimit = app.limiter({
    name: 'fan-restore-mail-ip',
    max: RESTORE_REQUESTS_PER_ADDRESS_PER_HOUR,
    windowSeconds: 60 * 60,
    key: networkOf,
    message: restoreWords,
  });
  const fanReads = fanReadLimiter(app, opts.fanReadsPerIpPerMinute);

  // ---- the creator ----------------------------------------------------------------------------

  r.get(calls.fanPlan.path, { schema: calls.fanPlan.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    reply.header('cache-control', 'no-store');
    // Back from Stripe's onboarding (?payouts=return): read the account's state now.
    if (stripe) {
      try {
        await refreshPayouts(app.db, stripe, creator.id);
      } catch (err) {
        request.log.warn({ err }, 'connected account not read from Stripe; its last state is shown');
      }
    }
    return planResponse(await readFanPlanSettings(ports, { creatorId: creator.id }));
  });

  r.put(calls.updateFanPlan.path, { schema: calls.updateFanPlan.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    const card = await updateFanPlanSettings(ports, { creatorId: creator.id }, request.body);
    reply.header('cache-control', 'no-store');
    return planResponse(card);
  });

  r.post(calls.connectPayouts.path, { schema: calls.connectPayouts.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    reply.header('cache-control', 'no-store');
    return connectPayouts(app.db, needStripe(), creator, opts.publicOrigin);
  });

  r.get(calls.earnings.path, { schema: calls.earnings.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    reply.header('cache-control', 'no-store');
    const report = await payoutsReport(app.db, stripe, creator.id);
    return earningsOf(app.db, creator.id, payments.feePercent, report);
  });

  r.get(calls.fanLeads.path, { schema: calls.fanLeads.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${creator.username}-fan-emails.csv"`)
      .type('text/csv; charset=utf-8');
    return leadsCsv(app.db, creator.id);
  });

  // ---- the fan --------------------------------------------------------------------------------

  r.get(
    calls.fanPlanState.path,
    { onRequest: fanReads, schema: calls.fanPlanState.schema },
    async (request, reply) => {
      const state = await readFanPlanState(ports, asFanOnly(request), {
        creator: request.query.creator,
        fanKey: request.params.fanId,
      });
      reply.header('cache-control', 'no-store');
      return state;
    },
  );

  r.post(calls.fanSubscribe.path, { schema: calls.fanSubscribe.schema }, async (request, reply) => {
    const creator = await onboarded(request.body.creator);
    reply.header('cache-control', 'no-store');
    return startFanCheckout(app.db, { ...payments, stripe: needStripe() }, asFanOnly(request), {
      creator,
      fanKey: request.body.fanId,
      interval: request.body.interval,
      publicOrigin: opts.publicOrigin,
    });
  });

  r.post(
    calls.confirmFanSubscription.path,
    { schema: calls.confirmFanSubscription.schema },
    async (request, reply) => {
      const creator = await onboarded(request.body.creator);
      const who = asFanOnly(request);
      await confirmFanCheckout(app.db, needStripe(), who, {
        creator,
        fanKey: request.body.fanId,
        sessionId: request.body.sessionId,
      });
      // The subscription's write asked for the creator's waiting questions to go to the AI (record 0077).
      const fan = await ownFan(app.db, who, creator.id, request.body.fanId);
      reply.header('cache-control', 'no-store');
      return fanPlanStateOf(
        app.db,
        { id: creator.id, name: creator.name, imageUrl: objectUrl(creator.profile_image_key) },
        fan,
      );
    },
  );

  r.post(
    calls.fanSubscriptionPortal.path,
    { schema: calls.fanSubscriptionPortal.schema },
    async (request, reply) => {
      const creator = await onboarded(request.body.creator);
      reply.header('cache-control', 'no-store');
      return fanPortal(app.db, needStripe(), asFanOnly(request), {
        creator,
        fanKey: request.body.fanId,
        publicOrigin: opts.publicOrigin,
      });
    },
  );

  r.post(
    calls.requestRestoreLink.path,
    { onRequest: restoreMailLimit, schema: calls.requestRestoreLink.schema },
    async (request, reply) => {
      assertMailOn(opts.mailer.mode !== 'off');
      const creator = await onboarded(request.body.creator);
      // The same words for an email that subscribes and one that does not: both are counted.
      const allowance = await takeRestoreRequest(app.db, request.body.email);
      if (!allowance.allowed) {
        const seconds = allowance.retryAfterSeconds;
        throw new HttpError(
          429,
          'rate_limited',
          `Too many restore links were asked for this email. Please wait ${retryAfterWords(seconds)} and try again.`,
          { 'retry-after': String(seconds) },
        );
      }
      await requestRestoreLink(app.db, {
        creatorId: creator.id,
        creatorName: creator.name,
        creatorUsername: creator.username,
        email: request.body.email,
        publicOrigin: opts.publicOrigin,
      });
      reply.header('cache-control', 'no-store');
      return { message: RESTORE_LINK_SENT_MESSAGE };
    },
  );

  r.post(
    calls.redeemRestoreLink.path,
    { onRequest: restoreLimit, schema: calls.redeemRestoreLink.schema },
    async (request, reply) => {
      const newCookieHash = hashToken(ensureFanToken(request, reply, opts.secureCookie));
      reply.header('cache-control', 'no-store');
      const restored = await redeemRestoreLink(app.db, {
        token: request.body.token,
        newCookieHash,
        newFanKey: `web_${newCookieHash.slice(0, 24)}`,
      });
      return restored;
    },
  );

  r.post(calls.captureLead.path, { schema: calls.captureLead.schema }, async (request) => {
    const { creator, fanId: fanKey, email } = request.body;
    await captureFanLead(ports, asFanOnly(request), { creator, fanKey, email });
    return { ok: true as const };
  });
}
