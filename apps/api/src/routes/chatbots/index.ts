import { calls } from '@fanpilot/contracts';
import { chatbotsRepository, deleteChatbot, readSources, saveChatbotWithSources } from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownChatbotByParam, ownInboxByParam } from '../../plugins/changes.ts';
import { toChatbot } from '../../serializers.ts';
import { knowledgeSources, ownedChatbot } from '../../services/knowledge.ts';

export async function chatbotsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    calls.creatorChatbot.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.creatorChatbot.schema,
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
    calls.createChatbot.path,
    {
      schema: calls.createChatbot.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      const sources = readSources(knowledgeSources(), request.body.urls.map((u) => u.trim()).filter(Boolean));
      const { bot } = await saveChatbotWithSources(app.db, creator.id, request.body.name, sources);
      const knowledge = await chatbotsRepository(app.db).knowledgeFor(bot.id);
      return reply.send(toChatbot(bot, knowledge));
    },
  );

  r.get(
    calls.chatbot.path,
    {
      config: { versionedBy: ownChatbotByParam },
      schema: calls.chatbot.schema,
    },
    async (request) => {
      const { chatbot } = await ownedChatbot(app, request, request.params.id);
      return toChatbot(chatbot, await chatbotsRepository(app.db).knowledgeFor(chatbot.id));
    },
  );

  r.put(
    calls.updateChatbotSettings.path,
    {
      schema: calls.updateChatbotSettings.schema,
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
      // A raised budget: the update itself asked for the questions that waited for it (record 0077).
      return toChatbot(updated, await bots.knowledgeFor(chatbot.id));
    },
  );

  r.delete(calls.deleteChatbot.path, { schema: calls.deleteChatbot.schema }, async (request) => {
    const creator = await app.requireCreator(request);
    const removed = await deleteChatbot(app.db, creator.id, request.params.id);
    // The files after the rows: a file left behind is only storage, never a source fans could cite.
    for (const key of removed.fileKeys) {
      await app.storage.remove(key).catch((err) => {
        request.log.warn({ key, err }, 'could not remove a knowledge file from storage');
      });
    }
    request.log.info(
      { chatbotId: removed.id, deletedKnowledge: removed.deletedKnowledge },
      'chatbot deleted with its knowledge',
    );
    return { success: true as const, id: removed.id, deletedKnowledge: removed.deletedKnowledge };
  });
}
