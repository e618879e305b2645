import {
  createTemplateRequestSchema,
  currentNoticeResponseSchema,
  DEFAULT_STATUS_TEXT_OFFLINE,
  noticeHistoryResponseSchema,
  onlineStatusSchema,
  setNoticeRequestSchema,
  setNoticeResponseSchema,
  successSchema,
  TEMPLATES_MAX_PER_CREATOR,
  templateParamsSchema,
  templateSchema,
  templatesResponseSchema,
  toggleStatusRequestSchema,
  toggleStatusResponseSchema,
  usageSchema,
  usernameParamsSchema,
} from '@fanpilot/contracts';
import { requeueAwaitingAnswers } from '@fanpilot/knowledge/answer';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toCreatorNotice, toNotice, toTemplate } from '../../conversation-serializers.ts';
import { conflict, notFound } from '../../errors.ts';
import { ownInboxByParam } from '../../plugins/changes.ts';
import { creditsRepository } from '../../repositories/credits.ts';
import { noticesRepository } from '../../repositories/notices.ts';
import { statusRepository } from '../../repositories/status.ts';
import { templatesRepository } from '../../repositories/templates.ts';
import { requestPush } from '../../services/push.ts';

const NOTICE_HISTORY_LIMIT = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Online status, announcements (notices), saved replies (templates) and credit usage. */
export async function statusRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const notices = noticesRepository(app.db);
  const templates = templatesRepository(app.db);

  r.get(
    '/api/creators/username/:username/status',
    {
      config: { versionedBy: ownInboxByParam },
      schema: { params: usernameParamsSchema, response: { 200: onlineStatusSchema } },
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return { isOnline: creator.is_online, statusText: creator.status_text || DEFAULT_STATUS_TEXT_OFFLINE };
    },
  );

  r.post(
    '/api/toggle-status',
    { schema: { body: toggleStatusRequestSchema, response: { 200: toggleStatusResponseSchema } } },
    async (request) => {
      const creator = await app.requireOwner(request, request.body.creator);
      const next = await statusRepository(app.db).toggle(creator.id);
      if (!next.is_online) {
        // While Offline the AI answers fans: what waits for the creator now goes to the AI.
        await requeueAwaitingAnswers(app.db, app.jobs, { creatorId: creator.id }).catch((err) =>
          request.log.error({ err }, 'could not hand pending questions to the AI'),
        );
      }
      return { success: true as const, isOnline: next.is_online, statusText: next.status_text };
    },
  );

  r.get(
    '/api/creators/username/:username/notice',
    {
      config: { versionedBy: ownInboxByParam },
      schema: { params: usernameParamsSchema, response: { 200: currentNoticeResponseSchema } },
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
    '/api/creators/username/:username/notice-history',
    {
      config: { versionedBy: ownInboxByParam },
      schema: { params: usernameParamsSchema, response: { 200: noticeHistoryResponseSchema } },
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return (await notices.history(creator.id, NOTICE_HISTORY_LIMIT)).map(toCreatorNotice);
    },
  );

  r.post(
    '/api/creators/username/:username/set-notice',
    {
      schema: {
        params: usernameParamsSchema,
        body: setNoticeRequestSchema,
        response: { 200: setNoticeResponseSchema },
      },
    },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      let notice = await notices.insert(creator.id, request.body.message);
      if (request.body.push) {
        notice = { ...notice, push: true };
        await app.db.updateTable('notices').set({ push: true }).where('id', '=', notice.id).execute();
        await requestPush(app.jobs, { kind: 'notice', id: notice.id }, request.log);
      }
      return { success: true as const, notice: toCreatorNotice(notice) };
    },
  );

  r.get(
    '/api/creators/username/:username/templates',
    {
      config: { versionedBy: ownInboxByParam },
      schema: { params: usernameParamsSchema, response: { 200: templatesResponseSchema } },
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return (await templates.list(creator.id)).map(toTemplate);
    },
  );

  r.post(
    '/api/creators/username/:username/templates',
    {
      schema: {
        params: usernameParamsSchema,
        body: createTemplateRequestSchema,
        response: { 200: templateSchema },
      },
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      if ((await templates.count(creator.id)) >= TEMPLATES_MAX_PER_CREATOR) {
        throw conflict(
          `You can keep at most ${TEMPLATES_MAX_PER_CREATOR} templates; delete one first.`,
          'too_many_templates',
        );
      }
      const row = await templates.insert(creator.id, request.body.title, request.body.content);
      return reply.send(toTemplate(row));
    },
  );

  r.delete(
    '/api/creators/username/:username/templates/:id',
    { schema: { params: templateParamsSchema, response: { 200: successSchema } } },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      const removed = UUID.test(request.params.id) && (await templates.remove(creator.id, request.params.id));
      if (!removed) throw notFound('No such template.');
      return { success: true as const };
    },
  );

  r.get(
    '/api/creators/username/:username/usage',
    {
      config: { versionedBy: ownInboxByParam },
      schema: { params: usernameParamsSchema, response: { 200: usageSchema } },
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return creditsRepository(app.db).usage(creator.id);
    },
  );
}
