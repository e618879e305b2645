import {
  calls,
  DEFAULT_STATUS_TEXT_OFFLINE,
  FAN_ATTACHMENT_MAX_BASE64_LENGTH,
  WIDGET_SITE_HEADER,
} from '@fanpilot/contracts';
import {
  aiRefusal,
  allowedWidgetSite,
  ask,
  chatbotsRepository,
  checkAttachment,
  claimFan,
  creatorsRepository,
  forgetCommand,
  forgetOnRequest,
  greetingsOf,
  hashToken,
  makeTransferLink,
  moveToAnotherBrowser,
  noticesRepository,
  reachableCreator,
  readFanChatlog,
} from '@fanpilot/core';
import type { CreatorRow } from '@fanpilot/db';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toFanChatMessage, toNotice, toPublicCreator } from '../../conversation-serializers.ts';
import { fanChatByParam, publicFaceByParam } from '../../plugins/changes.ts';
import { fanReadLimiter, networkOf, retryAfterWords } from '../../plugins/rate-limit.ts';
import { asFanOnly, askingBrowser, fanRequester } from '../../services/conversations.ts';
import { ensureFanToken } from '../../services/fan-identity.ts';

export interface FanChatRoutesOptions {
  secureCookie: boolean;
  /** Where transfer links point (the product's public origin). */
  publicOrigin: string;
  askLimits: { perFan: number; perIp: number; windowSeconds: number };
  /** GET /api/chatlog/fan/*: reads per address per minute. */
  fanReadsPerIpPerMinute: number;
  /** Fans (first questions of a fan id to a creator) one address may start per window. */
  newFans: { perIp: number; windowSeconds: number };
}

/** Transfer links one address may make, and redeem, per window. */
const TRANSFER_LIMIT = { max: 20, windowSeconds: 10 * 60 };

/** JSON around a base64 attachment of the largest allowed size. */
const ASK_BODY_LIMIT = FAN_ATTACHMENT_MAX_BASE64_LENGTH + 256 * 1024;

/** The fan side: asking, reading one's own chat, the creator's public card. Fans have no login. */
export async function fanChatRoutes(app: FastifyInstance, opts: FanChatRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ports = { db: app.db, storage: app.storage };
  const creators = creatorsRepository(app.db);

  const onboarded = async (username: string): Promise<CreatorRow> => {
    return reachableCreator(await creators.findByUsername(username), username);
  };

  const tooMany = (seconds: number) =>
    `Too many messages. Please wait ${retryAfterWords(seconds)} before sending another.`;
  // Per address before the body is even read; per fan once we know who it is.
  const perIp = app.limiter({
    name: 'ask-ip',
    max: opts.askLimits.perIp,
    windowSeconds: opts.askLimits.windowSeconds,
    key: networkOf,
    message: tooMany,
  });
  const perFan = app.limiter({
    name: 'ask-fan',
    max: opts.askLimits.perFan,
    windowSeconds: opts.askLimits.windowSeconds,
    key: (request) => {
      const body = request.body as { creator?: string; fanId?: string };
      return `${String(body.creator).toLowerCase()}:${body.fanId}`;
    },
    message: tooMany,
  });

  const fanReads = fanReadLimiter(app, opts.fanReadsPerIpPerMinute);
  const newFans = app.limiter({
    name: 'new-fan-ip',
    max: opts.newFans.perIp,
    windowSeconds: opts.newFans.windowSeconds,
    key: networkOf,
    message: (seconds) =>
      `Too many new chats were started from this network. Please wait ${retryAfterWords(seconds)} before starting another.`,
  });
  const transferWords = (seconds: number) =>
    `Too many transfer links. Please wait ${retryAfterWords(seconds)} and try again.`;
  const transferMakes = app.limiter({
    name: 'fan-transfer-ip',
    ...TRANSFER_LIMIT,
    key: networkOf,
    message: transferWords,
  });
  const transferRedeems = app.limiter({
    name: 'fan-transfer-redeem-ip',
    ...TRANSFER_LIMIT,
    key: networkOf,
    message: transferWords,
  });

  r.post(
    calls.ask.path,
    {
      bodyLimit: ASK_BODY_LIMIT,
      onRequest: perIp,
      schema: calls.ask.schema,
    },
    async (request, reply) => {
      const { body } = request;
      const creator = await onboarded(body.creator);
      // Everything that can be refused is refused before anything is written.
      const attachment = body.attachment
        ? await checkAttachment(body.attachment.filename, body.attachment.contentBase64)
        : null;
      // A question from the website widget names its site: one the creator allows, or refused.
      const siteHeader = request.headers[WIDGET_SITE_HEADER];
      const widgetSite =
        siteHeader === undefined
          ? null
          : await allowedWidgetSite(
              app.db,
              creator.id,
              typeof siteHeader === 'string' ? siteHeader : undefined,
            );
      const fan = await claimFan(ports, {
        widgetSite,
        creatorId: creator.id,
        fanKey: body.fanId,
        fanName: body.fanName,
        browser: askingBrowser(request, reply, opts.secureCookie),
        beforeNewFan: () => newFans(request),
      });
      // Counted only once the request is this fan's: a stranger sending as a fan id (403 above)
      // does not use up that fan's allowance.
      await perFan(request);
      reply.header('cache-control', 'no-store');
      // A message that is only a forget command is answered by the confirmation: not the AI's
      // question, no credit (record 0079).
      const command = forgetCommand(body.message);
      const asked = await ask(ports, {
        memoryCommand: command?.only === true,
        creatorId: creator.id,
        fan,
        text: body.message,
        fanName: body.fanName,
        attachment,
        clientKey: request.headers['idempotency-key'],
      });
      // The answer job was written with the question (record 0077): the relay queues it once committed.
      // "Forget everything" / "don't remember that": memory is cleared or the item dropped, and the fan told.
      const forgot = await forgetOnRequest(app.db, {
        fanId: fan.id,
        messageId: asked.message.id,
        text: body.message,
      });
      return {
        success: true as const,
        message: toFanChatMessage(asked.message),
        aiWillAnswer: asked.aiWillAnswer,
        paywall: asked.paywall,
        ...(forgot ? { memory: forgot } : {}),
      };
    },
  );

  r.get(
    calls.fanChatlog.path,
    {
      config: { versionedBy: fanChatByParam },
      onRequest: fanReads,
      schema: calls.fanChatlog.schema,
    },
    async (request, reply) => {
      const who = await fanRequester(request);
      const { messages, creator, notice, aiAnswers } = await readFanChatlog(ports, who, {
        fanId: request.params.fanId,
        creatorUsername: request.query.creator,
      });
      // A fan's browser gets its fan cookie on a read, before its first question: if that
      // question's answer is then lost, the retry still comes from the browser it binds to.
      if (who.creatorId === null) ensureFanToken(request, reply, opts.secureCookie);
      const card = creator ? toPublicCreator(creator, notice, [], aiAnswers) : null;
      reply.header('cache-control', 'no-store');
      return {
        messages: messages.map(toFanChatMessage),
        creator: card,
        notice: notice ? toNotice(notice) : null,
        isOnline: creator?.is_online ?? false,
        statusText: card?.statusText ?? DEFAULT_STATUS_TEXT_OFFLINE,
      };
    },
  );

  r.post(
    calls.createFanTransfer.path,
    {
      onRequest: transferMakes,
      schema: calls.createFanTransfer.schema,
    },
    async (request, reply) => {
      const creator = await onboarded(request.body.creator);
      const made = await makeTransferLink(ports, asFanOnly(request), {
        creatorId: creator.id,
        creatorUsername: creator.username,
        fanKey: request.body.fanId,
        publicOrigin: opts.publicOrigin,
      });
      reply.header('cache-control', 'no-store');
      return { url: made.url, expiresAt: made.expiresAt.toISOString() };
    },
  );

  r.post(
    calls.redeemFanTransfer.path,
    {
      onRequest: transferRedeems,
      schema: calls.redeemFanTransfer.schema,
    },
    async (request, reply) => {
      const newCookieHash = hashToken(ensureFanToken(request, reply, opts.secureCookie));
      reply.header('cache-control', 'no-store');
      return moveToAnotherBrowser(ports, { token: request.body.token, newCookieHash });
    },
  );

  r.get(
    calls.publicCreator.path,
    {
      config: { versionedBy: publicFaceByParam },
      schema: calls.publicCreator.schema,
    },
    async (request, reply) => {
      const creator = await onboarded(request.params.username);
      const [notice, greetings, refusal, chatbot] = await Promise.all([
        noticesRepository(app.db).current(creator.id),
        greetingsOf(app.db, creator.id),
        aiRefusal(app.db, creator.id),
        chatbotsRepository(app.db).findByCreator(creator.id),
      ]);
      reply.header('cache-control', 'no-store');
      return toPublicCreator(creator, notice, greetings, refusal === null, chatbot?.name ?? null);
    },
  );
}
