import { calls, PROFILE_IMAGE_MAX_BYTES_SIGNUP } from '@fanpilot/contracts';
import { chatbotsRepository, completeOnboarding, usernameAvailability } from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toChatbot, toCreator } from '../../serializers.ts';
import { verifyUploadedImage } from '../../services/images.ts';

export async function onboardingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    calls.profileImageUploadUrl.path,
    { schema: calls.profileImageUploadUrl.schema },
    async (request) => {
      const creator = await app.requireCreator(request);
      const key = app.storage.newUploadKey(creator.id);
      return { uploadURL: await app.storage.presignPut(key) };
    },
  );

  r.get(
    calls.usernameAvailability.path,
    { schema: calls.usernameAvailability.schema },
    async (request, reply) => {
      const creator = await app.requireCreator(request);
      reply.header('cache-control', 'no-store');
      return usernameAvailability(app.db, creator.id, request.params.username);
    },
  );

  r.post(calls.creatorSignup.path, { schema: calls.creatorSignup.schema }, async (request) => {
    const creator = await app.requireCreator(request);
    const chatbots = chatbotsRepository(app.db);

    // Signing up twice changes nothing and answers with what exists.
    if (creator.onboarding_complete) {
      const bot = await chatbots.findByCreator(creator.id);
      return {
        creator: toCreator(creator),
        chatbot: bot ? toChatbot(bot, await chatbots.knowledgeFor(bot.id)) : null,
      };
    }

    const { chatbotName, description, profileImageUrl, username } = request.body;
    const key = await verifyUploadedImage(
      app.storage,
      profileImageUrl,
      creator.id,
      PROFILE_IMAGE_MAX_BYTES_SIGNUP,
    );

    const done = await completeOnboarding(app.db, creator.id, {
      profileImageKey: key,
      description: description ?? '',
      chatbotName,
      username,
    });
    return { creator: toCreator(done.creator), chatbot: done.chatbot ? toChatbot(done.chatbot, []) : null };
  });
}
