import { randomBytes, randomUUID } from 'node:crypto';
import { FREE_CREDITS } from '@fanpilot/contracts';
import {
  adjustCredits,
  chatbotsRepository,
  completeOnboarding,
  creatorsRepository,
  fansRepository,
  knowledgeRepository,
  messagesRepository,
  statusRepository,
  storeChunks,
} from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';

// Seeders write through @fanpilot/core's own functions (sign-up, onboarding, the chatbot's settings,
// the ledger, a fan's first visit, a stored question, a stored source), so a seeded row is one the
// product could have written: no test writes a table around core.

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
  const signedUp = await creatorsRepository(db).insert({
    googleSub: `sub-${tag}`,
    email: `${tag}@example.com`,
    name: options.name ?? 'Bea Baker',
    username: `c-${tag}`,
  });
  if (!signedUp) throw new Error(`username c-${tag} is taken`);
  const creatorId = signedUp.id;
  // Onboarding makes the chatbot and grants FREE_CREDITS; the seed's own settings go on top.
  const { chatbot } = await completeOnboarding(db, creatorId, {
    profileImageKey: `profiles/${tag}.png`,
    description: '',
    chatbotName: 'Crumb',
  });
  if (!chatbot) throw new Error('onboarding made no chatbot');
  await chatbotsRepository(db).update(chatbot.id, {
    instructions: options.instructions ?? 'Answer briefly.',
    model: options.model ?? 'gpt-4o-mini',
    temperature: 0.3,
    initialMessages: options.initialMessages ?? [],
    ...(options.dailyAiBudget !== undefined ? { dailyAiBudget: options.dailyAiBudget } : {}),
  });
  const credits = options.credits ?? 1000;
  if (credits !== FREE_CREDITS) await adjustCredits(db, creatorId, credits - FREE_CREDITS);
  if (options.online) await statusRepository(db).toggle(creatorId);

  let asked = 0;
  const ask = async (count: number, body = (i: number) => `Question number ${i}?`) => {
    const ids: string[] = [];
    for (let i = asked; i < asked + count; i++) {
      const fan = await seedFan(db, creatorId, { fanKey: `mobile_fan_${tag}_${i}`, name: `Fan ${i}` });
      ids.push(await seedQuestion(db, fan, body(i)));
    }
    asked += count;
    return ids;
  };
  return { creatorId, chatbotId: chatbot.id, ask };
}

/** A creator with a chatbot, for tests of knowledge alone (no fans); the chatbot's id. */
export async function seedChatbot(db: Kysely<Database>): Promise<string> {
  return (await seedCreator(db)).chatbotId;
}

export interface SeededFan {
  creatorId: string;
  /** The fan row's id. */
  id: string;
  name: string;
}

/** A fan of the creator, as their first visit leaves them (bound to a browser of their own). */
export async function seedFan(
  db: Kysely<Database>,
  creatorId: string,
  fan: { fanKey?: string; name?: string } = {},
): Promise<SeededFan> {
  const name = fan.name ?? 'Finn';
  const row = await fansRepository(db).insertOrGet({
    creatorId,
    fanKey: fan.fanKey ?? `mobile_fan_${randomUUID().slice(0, 8)}`,
    name,
    cookieHash: randomBytes(32).toString('hex'),
  });
  return { creatorId, id: row.id, name };
}

/** A pending question from the fan; its message id. */
export function seedQuestion(db: Kysely<Database>, fan: SeededFan, body: string): Promise<string> {
  return messagesRepository(db).insert({
    creatorId: fan.creatorId,
    fanRowId: fan.id,
    sender: 'fan',
    body,
    status: 'pending',
    replyTo: null,
    fanName: fan.name,
  });
}

/** A ready (completed) web page in a chatbot's knowledge with one chunk of `content`, as ingestion leaves it. */
export async function seedKnowledge(
  db: Kysely<Database>,
  chatbotId: string,
  page: { url: string; title: string; content: string },
): Promise<string> {
  const id = randomUUID();
  await knowledgeRepository(db).insert({ id, chatbotId, type: 'url', url: page.url, title: page.title });
  // Stored as ingestion stores a fetched page: its chunks written and the item marked ready.
  const stored = await storeChunks(db, {
    itemId: id,
    run: id,
    chunks: [{ content: page.content, metadata: {} }],
    embeddings: null,
    title: page.title,
  });
  if (stored !== 'stored') throw new Error(`the seeded page was ${stored}`);
  return id;
}
