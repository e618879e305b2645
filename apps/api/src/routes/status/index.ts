import { calls, DEFAULT_STATUS_TEXT_OFFLINE } from '@fanpilot/contracts';
import {
  addTemplate,
  creditsRepository,
  deleteTemplate,
  noticesRepository,
  statusRepository,
  templatesRepository,
} from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toCreatorNotice, toNotice, toTemplate } from '../../conversation-serializers.ts';
import { ownInboxByParam } from '../../plugins/changes.ts';

const NOTICE_HISTORY_LIMIT = 200;

/** Online status, announcements (notices), saved replies (templates) and credit usage. */
export async function statusRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const notices = noticesRepository(app.db);
  const templates = templatesRepository(app.db);

  r.get(
    calls.status.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.status.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return { isOnline: creator.is_online, statusText: creator.status_text || DEFAULT_STATUS_TEXT_OFFLINE };
    },
  );

  r.post(calls.toggleStatus.path, { schema: calls.toggleStatus.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.body.creator);
    // Gone Offline: the toggle's write asks for what waits for the creator to go to the AI (record 0077).
    const next = await statusRepository(app.db).toggle(creator.id);
    return { success: true as const, isOnline: next.is_online, statusText: next.status_text };
  });

  r.get(
    calls.notice.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.notice.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      const notice = await notices.current(creator.id);
      reply.header('cache-control', 'no-store');
      if (!notice) return { notice: null };
      // The notice's fields also at the top level (message, timestamp, sentCount); `notice` stays.
      const current = toNotice(notice);
      return { ...current, notice: current };
    },
  );

  r.get(
    calls.noticeHistory.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.noticeHistory.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return (await notices.history(creator.id, NOTICE_HISTORY_LIMIT)).map(toCreatorNotice);
    },
  );

  r.post(
    calls.setNotice.path,
    {
      schema: calls.setNotice.schema,
    },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      // A pushed announcement is asked for by its commit (the push outbox).
      const notice = await notices.insert(creator.id, request.body.message, request.body.push === true);
      return { success: true as const, notice: toCreatorNotice(notice) };
    },
  );

  r.get(
    calls.templates.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.templates.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return (await templates.list(creator.id)).map(toTemplate);
    },
  );

  r.post(
    calls.createTemplate.path,
    {
      schema: calls.createTemplate.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      const row = await addTemplate(app.db, creator.id, request.body.title, request.body.content);
      return reply.send(toTemplate(row));
    },
  );

  r.delete(calls.deleteTemplate.path, { schema: calls.deleteTemplate.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.params.username);
    await deleteTemplate(app.db, creator.id, request.params.id);
    return { success: true as const };
  });

  r.get(
    calls.usage.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.usage.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return creditsRepository(app.db).usage(creator.id);
    },
  );
}
