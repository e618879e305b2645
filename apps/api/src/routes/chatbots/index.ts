import {
  chatbotIdParamsSchema,
  chatbotSchema,
  chatbotSettingsRequestSchema,
  createChatbotRequestSchema,
  creatorChatbotResponseSchema,
  DEFAULT_CHATBOT_INSTRUCTIONS,
  DEFAULT_MODEL,
  DEFAULT_TEMPERATURE,
  usernameParamsSchema,
} from '@fanpilot/contracts';
import type { KnowledgeItemRow } from '@fanpilot/db';
import { requeueAwaitingAnswers } from '@fanpilot/knowledge/answer';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownChatbotByParam, ownInboxByParam } from '../../plugins/changes.ts';
import { chatbotsRepository } from '../../repositories/chatbots.ts';
import { knowledgeRepository } from '../../repositories/knowledge.ts';
import { toChatbot } from '../../serializers.ts';
import { assertRoom, enqueueItems, ownedChatbot, parseSource, toNewItem } from '../../services/knowledge.ts';

export async function chatbotsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/creators/username/:username/chatbot',
    {
      config: { versionedBy: ownInboxByParam },
      schema: { params: usernameParamsSchema, response: { 200: creatorChatbotResponseSchema } },
    },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      const bots = chatbotsRepository(app.db);
      const bot = await bots.findByCreator(creator.id);
      return bot ? toChatbot(bot, await bots.knowledgeFor(bot.id)) : null;
    },
  );

  /**
   * Creates the creator's chatbot, or, since onboarding already made one (one per creator), renames
   * it and adds the URLs: 200 either way (every success is 200). URLs it already has are not added twice.
   */
  r.post(
    '/api/creators/username/:username/chatbot',
    {
      schema: {
        params: usernameParamsSchema,
        body: createChatbotRequestSchema,
        response: { 200: chatbotSchema },
      },
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      const sources = request.body.urls
        .map((u) => u.trim())
        .filter(Boolean)
        .map(parseSource);
      const { bot, added } = await app.db.transaction().execute(async (trx) => {
        const bots = chatbotsRepository(trx);
        let bot = await bots.findByCreator(creator.id);
        if (bot) {
          bot = await bots.update(bot.id, { name: request.body.name });
        } else {
          bot =
            (await bots.insert({
              creatorId: creator.id,
              name: request.body.name,
              instructions: DEFAULT_CHATBOT_INSTRUCTIONS,
              model: DEFAULT_MODEL,
              temperature: DEFAULT_TEMPERATURE,
              initialMessages: [],
            })) ?? (await bots.findByCreator(creator.id))!;
        }
        const items = knowledgeRepository(trx);
        const existing = await items.listByChatbot(bot.id);
        const seen = new Set(existing.map((i) => i.url ?? i.youtube_url));
        const fresh = sources.filter((s) => {
          const key = s.type === 'url' ? s.url : s.link.url;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
        await assertRoom(trx, bot.id, fresh.length);
        const added: KnowledgeItemRow[] = [];
        for (const source of fresh) added.push(await items.insert(toNewItem(bot.id, source)));
        return { bot, added };
      });
      await enqueueItems(app.jobs, request.log, added);
      const knowledge = await chatbotsRepository(app.db).knowledgeFor(bot.id);
      return reply.send(toChatbot(bot, knowledge));
    },
  );

  r.get(
    '/api/chatbots/:id',
    {
      config: { versionedBy: ownChatbotByParam },
      schema: { params: chatbotIdParamsSchema, response: { 200: chatbotSchema } },
    },
    async (request) => {
      const { chatbot } = await ownedChatbot(app, request, request.params.id);
      return toChatbot(chatbot, await chatbotsRepository(app.db).knowledgeFor(chatbot.id));
    },
  );

  r.put(
    '/api/chatbots/:id/settings',
    {
      schema: {
        params: chatbotIdParamsSchema,
        body: chatbotSettingsRequestSchema,
        response: { 200: chatbotSchema },
      },
    },
    async (request) => {
      const { chatbot } = await ownedChatbot(app, request, request.params.id);
      const bots = chatbotsRepository(app.db);
      const { name, instructions, model, temp, initialMessages, dailyAiBudget } = request.body;
      const updated = await bots.update(chatbot.id, {
        name,
        instructions,
        model,
        temperature: temp,
        ...(initialMessages ? { initialMessages } : {}),
        ...(dailyAiBudget !== undefined ? { dailyAiBudget } : {}),
      });
      if (dailyAiBudget !== undefined && dailyAiBudget > chatbot.daily_ai_budget) {
        // A raised budget: questions that waited for it go to the AI if the creator is Offline.
        await requeueAwaitingAnswers(app.db, app.jobs, { creatorId: chatbot.creator_id }).catch((err) =>
          request.log.error({ err }, 'could not hand pending questions to the AI'),
        );
      }
      return toChatbot(updated, await bots.knowledgeFor(chatbot.id));
    },
  );
}
