import { DEFAULT_CHATBOT_INSTRUCTIONS, DEFAULT_MODEL, DEFAULT_TEMPERATURE } from '@fanpilot/contracts';
import type { ChatbotRow, CreatorRow, Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import { chatbotsRepository } from './chatbots.ts';
import { creatorsRepository } from './creators.ts';
import { grantFreeCredits } from './credits.ts';

/**
 * Finishes a creator's onboarding, once: profile image and description, the chatbot with the specified
 * defaults and the free credits, in one transaction. The creator row lock makes a double submit
 * wait and then find onboarding done: it changes nothing and answers with what exists.
 */
export async function completeOnboarding(
  db: Kysely<Database>,
  creatorId: string,
  profile: { profileImageKey: string; description: string; chatbotName: string },
): Promise<{ creator: CreatorRow; chatbot: ChatbotRow | undefined }> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx
      .selectFrom('creators')
      .selectAll()
      .where('id', '=', creatorId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const bots = chatbotsRepository(trx);
    if (locked.onboarding_complete) return { creator: locked, chatbot: await bots.findByCreator(creatorId) };
    const updated = await creatorsRepository(trx).update(creatorId, {
      profile_image_key: profile.profileImageKey,
      description: profile.description,
      onboarding_complete: true,
    });
    const chatbot =
      (await bots.insert({
        creatorId,
        name: profile.chatbotName,
        instructions: DEFAULT_CHATBOT_INSTRUCTIONS,
        model: DEFAULT_MODEL,
        temperature: DEFAULT_TEMPERATURE,
        initialMessages: [],
      })) ?? (await bots.findByCreator(creatorId));
    await grantFreeCredits(trx, creatorId);
    return { creator: updated, chatbot };
  });
}
