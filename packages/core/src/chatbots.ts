import { DEFAULT_CHATBOT_INSTRUCTIONS, DEFAULT_MODEL, DEFAULT_TEMPERATURE } from '@fanpilot/contracts';
import type { ChatbotRow, Database, KnowledgeItemRow } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import type { Db } from './db.ts';
import { assertKnowledgeRoom, knowledgeRepository, type NewKnowledgeItem } from './knowledge.ts';

export function chatbotsRepository(db: Db) {
  return {
    findByCreator: (creatorId: string) =>
      db.selectFrom('chatbots').selectAll().where('creator_id', '=', creatorId).executeTakeFirst(),
    findById: (id: string) => db.selectFrom('chatbots').selectAll().where('id', '=', id).executeTakeFirst(),
    async insert(values: {
      creatorId: string;
      name: string;
      instructions: string;
      model: string;
      temperature: number;
      initialMessages: string[];
    }) {
      return db
        .insertInto('chatbots')
        .values({
          creator_id: values.creatorId,
          name: values.name,
          instructions: values.instructions,
          model: values.model,
          temperature: values.temperature,
          initial_messages: JSON.stringify(values.initialMessages),
        })
        .onConflict((oc) => oc.column('creator_id').doNothing())
        .returningAll()
        .executeTakeFirst();
    },
    async update(
      id: string,
      values: Partial<{
        name: string;
        instructions: string;
        model: string;
        temperature: number;
        initialMessages: string[];
        dailyAiBudget: number;
      }>,
    ) {
      return db
        .updateTable('chatbots')
        .set({
          ...(values.name !== undefined ? { name: values.name } : {}),
          ...(values.instructions !== undefined ? { instructions: values.instructions } : {}),
          ...(values.model !== undefined ? { model: values.model } : {}),
          ...(values.temperature !== undefined ? { temperature: values.temperature } : {}),
          ...(values.initialMessages !== undefined
            ? { initial_messages: JSON.stringify(values.initialMessages) }
            : {}),
          ...(values.dailyAiBudget !== undefined ? { daily_ai_budget: values.dailyAiBudget } : {}),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    /** The chatbot's knowledge items, in the order they were added. */
    knowledgeFor: (chatbotId: string) => knowledgeRepository(db).listByChatbot(chatbotId),
  };
}

/** A knowledge source to add with a chatbot: its address (to skip one the chatbot already has) and its row. */
export interface SourceToAdd {
  address: string;
  item: (chatbotId: string) => NewKnowledgeItem;
}

/**
 * Creates the creator's chatbot with the specified defaults, or renames the one they have, and adds the
 * sources it does not hold yet (within KNOWLEDGE_MAX_ITEMS), in one transaction. Returns the chatbot
 * and the items added (to be queued once committed).
 */
export async function saveChatbotWithSources(
  db: Kysely<Database>,
  creatorId: string,
  name: string,
  sources: SourceToAdd[],
): Promise<{ bot: ChatbotRow; added: KnowledgeItemRow[] }> {
  return db.transaction().execute(async (trx) => {
    const bots = chatbotsRepository(trx);
    let bot = await bots.findByCreator(creatorId);
    if (bot) {
      bot = await bots.update(bot.id, { name });
    } else {
      bot =
        (await bots.insert({
          creatorId,
          name,
          instructions: DEFAULT_CHATBOT_INSTRUCTIONS,
          model: DEFAULT_MODEL,
          temperature: DEFAULT_TEMPERATURE,
          initialMessages: [],
        })) ?? (await bots.findByCreator(creatorId));
    }
    if (!bot) throw new Error('the chatbot was neither found nor created');
    const items = knowledgeRepository(trx);
    const seen = new Set((await items.listByChatbot(bot.id)).map((i) => i.url ?? i.youtube_url));
    const fresh = sources.filter((s) => {
      if (seen.has(s.address)) return false;
      seen.add(s.address);
      return true;
    });
    await assertKnowledgeRoom(trx, bot.id, fresh.length);
    const added: KnowledgeItemRow[] = [];
    for (const source of fresh) added.push(await items.insert(source.item(bot.id)));
    return { bot, added };
  });
}

/** The lines the creator's chatbot greets fans with (none without a chatbot). */
export async function greetingsOf(db: Db, creatorId: string): Promise<string[]> {
  const row = await db
    .selectFrom('chatbots')
    .select('initial_messages')
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  return row?.initial_messages ?? [];
}
