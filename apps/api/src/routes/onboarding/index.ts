import {
  creatorSignupRequestSchema,
  creatorSignupResponseSchema,
  DEFAULT_CHATBOT_INSTRUCTIONS,
  DEFAULT_MODEL,
  DEFAULT_TEMPERATURE,
  FREE_CREDITS,
  objectUploadResponseSchema,
  PROFILE_IMAGE_MAX_BYTES_SIGNUP,
} from '@fanpilot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { chatbotsRepository } from '../../repositories/chatbots.ts';
import { creatorsRepository } from '../../repositories/creators.ts';
import { toChatbot, toCreator } from '../../serializers.ts';
import { verifyUploadedImage } from '../../services/images.ts';

export async function onboardingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/objects/upload',
    { schema: { response: { 200: objectUploadResponseSchema } } },
    async (request) => {
      const creator = await app.requireCreator(request);
      const key = app.storage.newUploadKey(creator.id);
      return { uploadURL: await app.storage.presignPut(key) };
    },
  );

  r.post(
    '/api/creator-signup',
    { schema: { body: creatorSignupRequestSchema, response: { 200: creatorSignupResponseSchema } } },
    async (request) => {
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

      const { chatbotName, description, profileImageUrl } = request.body;
      const key = await verifyUploadedImage(
        app.storage,
        profileImageUrl,
        creator.id,
        PROFILE_IMAGE_MAX_BYTES_SIGNUP,
      );

      return app.db.transaction().execute(async (trx) => {
        // The row lock makes a double submit wait here and then see onboarding done.
        const locked = await trx
          .selectFrom('creators')
          .selectAll()
          .where('id', '=', creator.id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const bots = chatbotsRepository(trx);
        if (locked.onboarding_complete) {
          const bot = await bots.findByCreator(creator.id);
          return { creator: toCreator(locked), chatbot: bot ? toChatbot(bot, []) : null };
        }
        const updated = await creatorsRepository(trx).update(creator.id, {
          profile_image_key: key,
          description: description ?? '',
          onboarding_complete: true,
        });
        const bot =
          (await bots.insert({
            creatorId: creator.id,
            name: chatbotName,
            instructions: DEFAULT_CHATBOT_INSTRUCTIONS,
            model: DEFAULT_MODEL,
            temperature: DEFAULT_TEMPERATURE,
            initialMessages: [],
          })) ?? (await bots.findByCreator(creator.id));
        await trx
          .insertInto('credit_ledger')
          .values({ creator_id: creator.id, delta: FREE_CREDITS, reason: 'free_grant' })
          .execute();
        return { creator: toCreator(updated), chatbot: bot ? toChatbot(bot, []) : null };
      });
    },
  );
}
