import {
  DEFAULT_CHATBOT_INSTRUCTIONS,
  DEFAULT_MODEL,
  DEFAULT_TEMPERATURE,
  isUuid,
} from '@fanpilot/contracts';
import type { ChatbotRow, Database, KnowledgeItemRow } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
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
        .executeTakeFirst()
        .then((row) => {
          // Deleted between the caller's read and this write (a delete at the same moment).
          if (!row) throw new DomainError('not_found', 'not_found', 'This chatbot no longer exists.');
          return row;
        });
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
    // Locked: a delete of the chatbot running at the same moment either finishes first (and this
    // creates a new one) or waits for this; found unlocked, the update below found no row (a 500).
    let bot = await trx
      .selectFrom('chatbots')
      .selectAll()
      .where('creator_id', '=', creatorId)
      .forUpdate()
      .executeTakeFirst();
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

/**
 * Deletes the creator's chatbot with all its knowledge (items and their passages), in one
 * transaction (issue 29; docs/decisions/0039-a-chatbot-can-be-deleted.md). Answers the storage keys
 * of the knowledge files, which the caller removes once the rows are gone. The creator's fans,
 * conversations and credits stay: a new chatbot answers them again. Someone else's chatbot: 403;
 * none with this id: 404.
 */
export async function deleteChatbot(
  db: Kysely<Database>,
  creatorId: string,
  chatbotId: string,
): Promise<{ id: string; name: string; deletedKnowledge: number; fileKeys: string[] }> {
  if (!isUuid(chatbotId)) throw new DomainError('not_found', 'not_found', 'No chatbot with this id.');
  return db.transaction().execute(async (trx) => {
    const bot = await trx
      .selectFrom('chatbots')
      .selectAll()
      .where('id', '=', chatbotId)
      .forUpdate()
      .executeTakeFirst();
    if (!bot) throw new DomainError('not_found', 'not_found', 'This chatbot was already deleted.');
    if (bot.creator_id !== creatorId) {
      throw new DomainError('forbidden', 'forbidden', 'You can only delete your own chatbot.');
    }
    // The items first, while the chatbot row still names their creator for the change feed.
    const items = await trx
      .deleteFrom('knowledge_items')
      .where('chatbot_id', '=', bot.id)
      .returning(['id', 'file_key'])
      .execute();
    await trx.deleteFrom('chatbots').where('id', '=', bot.id).execute();
    return {
      id: bot.id,
      name: bot.name,
      deletedKnowledge: items.length,
      fileKeys: items.map((i) => i.file_key).filter((k): k is string => Boolean(k)),
    };
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

/** The creator's chatbot; a creator who has none is told to create it first. */
export async function requireChatbot(db: Db, creatorId: string): Promise<ChatbotRow> {
  const chatbot = await chatbotsRepository(db).findByCreator(creatorId);
  if (!chatbot) throw new DomainError('not_found', 'not_found', 'Create your chatbot first.');
  return chatbot;
}

/** The creator id of chatbot `id` (a chatbot never changes owner), or undefined. */
export async function chatbotOwnerId(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('chatbots').select('creator_id').where('id', '=', id).executeTakeFirst();
  return row?.creator_id;
}
