import type { Database } from '@fanpilot/db';
import type { Kysely, Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

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
    knowledgeFor: (chatbotId: string) =>
      db
        .selectFrom('knowledge_items')
        .selectAll()
        .where('chatbot_id', '=', chatbotId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute(),
  };
}
