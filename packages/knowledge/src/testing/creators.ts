import { randomUUID } from 'node:crypto';
import type { Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';

export interface SeededCreator {
  creatorId: string;
  chatbotId: string;
  /** Stores `count` pending fan questions, each from a fan of its own; their ids, oldest first. */
  ask: (count: number, body?: (i: number) => string) => Promise<string[]>;
}

/**
 * An onboarded creator with a chatbot (a model the fake OpenAI answers for) and credits, as the
 * answer handler finds them; Offline unless told otherwise.
 */
export async function seedCreator(
  db: Kysely<Database>,
  options: {
    credits?: number;
    dailyAiBudget?: number;
    online?: boolean;
    name?: string;
    model?: string;
    instructions?: string;
    initialMessages?: string[];
  } = {},
): Promise<SeededCreator> {
  const tag = randomUUID().slice(0, 8);
  const creator = await db
    .insertInto('creators')
    .values({
      google_sub: `sub-${tag}`,
      email: `${tag}@example.com`,
      name: options.name ?? 'Bea Baker',
      username: `c-${tag}`,
      description: '',
      onboarding_complete: true,
      is_online: options.online ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const bot = await db
    .insertInto('chatbots')
    .values({
      creator_id: creator.id,
      name: 'Crumb',
      instructions: options.instructions ?? 'Answer briefly.',
      model: options.model ?? 'gpt-4o-mini',
      temperature: 0.3,
      initial_messages: JSON.stringify(options.initialMessages ?? []),
      ...(options.dailyAiBudget !== undefined ? { daily_ai_budget: options.dailyAiBudget } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('credit_ledger')
    .values({ creator_id: creator.id, delta: options.credits ?? 1000, reason: 'free_grant' })
    .execute();
  let asked = 0;
  const ask = async (count: number, body = (i: number) => `Question number ${i}?`) => {
    if (count === 0) return [];
    const fans = await db
      .insertInto('fans')
      .values(
        Array.from({ length: count }, (_, i) => ({
          creator_id: creator.id,
          fan_key: `mobile_fan_${tag}_${asked + i}`,
          name: `Fan ${asked + i}`,
        })),
      )
      .returning('id')
      .execute();
    const rows = await db
      .insertInto('messages')
      .values(
        fans.map((fan, i) => ({
          creator_id: creator.id,
          fan_id: fan.id,
          sender: 'fan' as const,
          body: body(asked + i),
          status: 'pending' as const,
          fan_name: `Fan ${asked + i}`,
        })),
      )
      .returning('id')
      .execute();
    asked += count;
    return rows.map((r) => String(r.id)).sort((a, b) => Number(a) - Number(b));
  };
  return { creatorId: creator.id, chatbotId: bot.id, ask };
}

/** A creator with a chatbot, for tests of knowledge alone (no fans); the chatbot's id. */
export async function seedChatbot(db: Kysely<Database>): Promise<string> {
  return (await seedCreator(db)).chatbotId;
}

/** A ready (completed) web page in a chatbot's knowledge with one chunk of `content`, as ingestion leaves it. */
export async function seedKnowledge(
  db: Kysely<Database>,
  chatbotId: string,
  page: { url: string; title: string; content: string },
): Promise<string> {
  const item = await db
    .insertInto('knowledge_items')
    .values({ chatbot_id: chatbotId, type: 'url', url: page.url, title: page.title, status: 'completed' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('chunks')
    .values({
      knowledge_item_id: item.id,
      chatbot_id: chatbotId,
      ordinal: 0,
      content: page.content,
      metadata: '{}',
    })
    .execute();
  return item.id;
}
