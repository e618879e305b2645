import { DEFAULT_CHATBOT_INSTRUCTIONS, DEFAULT_MODEL, DEFAULT_TEMPERATURE } from '@fanpilot/contracts';
import type { ChatbotRow, CreatorRow, Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import { chatbotsRepository } from './chatbots.ts';
import { creatorsRepository } from './creators.ts';
import { grantFreeCredits } from './credits.ts';
import { assertUsernameFree, isUsernameClash, usernameTaken } from './usernames.ts';

/**
 * Finishes a creator's onboarding, once: profile image and description, the chatbot with the specified
 * defaults and the free credits, in one transaction. The creator row lock makes a double submit
 * wait and then find onboarding done: it changes nothing and answers with what exists.
 * `username` (normalized), when given and not the one assigned at first sign-in, becomes the
 * creator's username for good: refused (400, 409) when it breaks a rule or another creator holds it.
 */
export async function completeOnboarding(
  db: Kysely<Database>,
  creatorId: string,
  profile: {
    profileImageKey: string;
    description: string;
    chatbotName: string;
    username?: string | undefined;
  },
): Promise<{ creator: CreatorRow; chatbot: ChatbotRow | undefined }> {
  try {
    return await finishOnboarding(db, creatorId, profile);
  } catch (err) {
    // Two creators choosing one name at once: the unique index decides, the second is refused.
    if (isUsernameClash(err)) throw usernameTaken();
    throw err;
  }
}

function finishOnboarding(
  db: Kysely<Database>,
  creatorId: string,
  profile: {
    profileImageKey: string;
    description: string;
    chatbotName: string;
    username?: string | undefined;
  },
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
    const rename = profile.username !== undefined && profile.username !== locked.username;
    if (rename) await assertUsernameFree(trx, creatorId, profile.username as string);
    const updated = await creatorsRepository(trx).update(creatorId, {
      ...(rename ? { username: profile.username } : {}),
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
