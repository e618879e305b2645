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
  options: { credits?: number; dailyAiBudget?: number; online?: boolean; name?: string } = {},
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
      instructions: 'Answer briefly.',
      model: 'gpt-4o-mini',
      temperature: 0.3,
      initial_messages: '[]',
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

/** A bare creator with a chatbot, for tests of knowledge alone (no credits, no fans); the chatbot's id. */
export async function seedChatbot(db: Kysely<Database>): Promise<string> {
  const tag = randomUUID().slice(0, 8);
  const creator = await db
    .insertInto('creators')
    .values({
      google_sub: `s-${tag}`,
      email: `${tag}@example.com`,
      name: 'n',
      username: `u-${tag}`,
      description: '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const bot = await db
    .insertInto('chatbots')
    .values({
      creator_id: creator.id,
      name: 'b',
      instructions: '',
      model: 'gpt-4o',
      temperature: 0.7,
      initial_messages: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return bot.id;
}
