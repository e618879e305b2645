import { CONVERSATION_PAGE_SIZE, CONVERSATIONS_PAGE_SIZE, calls } from '@fanpilot/contracts';
import {
  creatorsFan,
  creditsRepository,
  fanNameOf,
  inboxRepository,
  startOfToday,
  subscriberFanKeys,
} from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toMessage } from '../../conversation-serializers.ts';
import { ownInboxByParam } from '../../plugins/changes.ts';

/**
 * The dashboard's inbox at any volume: exact counts, every conversation reachable in keyset pages
 * (searchable, filterable), and a conversation read from its newest end. The specified calls stay as
 * they are; these are what the dashboard reads.
 */
export async function inboxRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const inbox = inboxRepository(app.db);

  r.get(
    calls.inboxStats.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.inboxStats.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      const timeZone = request.query.tz ?? 'UTC';
      const todayStart = startOfToday(timeZone);
      const [counts, usage] = await Promise.all([
        inbox.counts(creator.id, todayStart),
        creditsRepository(app.db).usage(creator.id),
      ]);
      reply.header('cache-control', 'no-store');
      return {
        ...counts,
        credits: usage.creditsRemaining,
        timeZone,
        todayStartedAt: todayStart.toISOString(),
      };
    },
  );

  r.get(
    calls.conversations.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.conversations.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      const { filter = 'all', q = '', cursor, limit = CONVERSATIONS_PAGE_SIZE } = request.query;
      const page = await inbox.conversations(creator.id, {
        filter,
        search: q,
        limit,
        ...(cursor ? { cursor } : {}),
      });
      reply.header('cache-control', 'no-store');
      const subscribers = await subscriberFanKeys(
        app.db,
        creator.id,
        page.rows.map((row) => row.fanKey),
      );
      return {
        conversations: page.rows.map((row) => ({
          fanId: row.fanKey,
          fanName: row.name,
          messageCount: row.messageCount,
          pendingCount: row.pendingCount,
          lastActivityAt: row.lastActivityAt.toISOString(),
          firstSeenAt: row.createdAt.toISOString(),
          latestFanMessage: row.latestFanMessage ? toMessage(row.latestFanMessage) : null,
          latestReply: row.latestReply ? toMessage(row.latestReply) : null,
          newestPending: row.newestPending ? toMessage(row.newestPending) : null,
          subscriber: subscribers.has(row.fanKey),
        })),
        nextCursor: page.nextCursor,
      };
    },
  );

  r.get(
    calls.conversation.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.conversation.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      const fan = await creatorsFan(app.db, creator.id, request.params.fanId);
      const { before, limit = CONVERSATION_PAGE_SIZE } = request.query;
      const page = await inbox.conversationPage(fan.id, { limit, ...(before ? { before } : {}) });
      reply.header('cache-control', 'no-store');
      return {
        fanId: fan.fan_key,
        fanName: fanNameOf(fan),
        messages: page.messages.map(toMessage),
        olderCursor: page.olderCursor,
      };
    },
  );
}
