import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedFan } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetCommand, keepExtractedMemory, MEMORY_MAX_ITEMS, memoryWords, sameFact } from './memory.ts';

// Per-fan memory (record 0079): the forget commands in the product's languages, and what
// keepExtractedMemory keeps (the same fact once, a near duplicate replacing, at most 50 items).

describe('forget commands', () => {
  // [message, kind or null, whether the message is only the command]
  const cases: [string, 'all' | 'that' | null, boolean?][] = [
    // English, and its common variants
    ['forget everything', 'all', true],
    ['Forget everything about me.', 'all', true],
    ['Please forget what I told you', 'all', true],
    ['Forget all of that, thanks!', 'all', true],
    ['Can you forget everything I said?', 'all', true],
    ['Delete everything you know about me', 'all', true],
    ['Please clear your memory.', 'all', true],
    ["Don't remember that, please.", 'that', true],
    ['Do not remember this', 'that', true],
    ['don’t keep that', 'that', true],
    ['Forget what I just said.', 'that', true],
    ['Forget that. How far should I run on Sunday?', 'that', false],
    // Spanish
    ['Olvida todo, por favor', 'all', true],
    ['Olvídate de todo lo que te dije', 'all', true],
    ['Borra todo lo que sabes de mí', 'all', true],
    ['No recuerdes eso', 'that', true],
    ['Olvida eso.', 'that', true],
    // French
    ['Oublie tout', 'all', true],
    ["Oubliez tout ce que je vous ai dit, s'il vous plaît.", 'all', true],
    ['Efface ta mémoire', 'all', true],
    ['Ne retiens pas ça', 'that', true],
    ['Oublie ça !', 'that', true],
    // German
    ['Vergiss alles', 'all', true],
    ['Bitte vergiss alles, was ich dir gesagt habe.', 'all', true],
    ['Lösch alles, was du über mich weißt', 'all', true],
    ['Merk dir das nicht!', 'that', true],
    ['Vergiss das.', 'that', true],
    // Portuguese
    ['Esqueça tudo', 'all', true],
    ['Esquece tudo o que eu te disse', 'all', true],
    ['Não lembre disso', 'that', true],
    ['Esqueça isso, obrigado', 'that', true],
    // Italian
    ['Dimentica tutto', 'all', true],
    ['Non ricordare questo', 'that', true],
    // Messages that merely mention forgetting or remembering: not commands
    ['I always forget everything I read about pacing.', null],
    ["Don't forget that the race is on Sunday!", null],
    ["I don't remember that workout, can you explain it again?", null],
    ['How do I remember all the splits?', null],
    ['My coach told me to forget about speed for now.', null],
    ['Olvido todo lo que leo sobre nutrición.', null],
    ['No olvides eso, es importante.', null],
    ['No recuerdo eso.', null],
    ["J'oublie tout après la course.", null],
    ["N'oublie pas ça.", null],
    ['Ich vergesse alles nach dem Lauf.', null],
    ['Vergiss das nicht!', null],
    ['Eu esqueço tudo depois do treino.', null],
    ['Não esqueça isso.', null],
    ['Non dimenticare questo.', null],
    ['What should I forget about when tapering?', null],
  ];
  it.each(cases)('%s → %s', (message, kind, only) => {
    const got = forgetCommand(message);
    if (kind === null) expect(got).toBeNull();
    else expect(got).toEqual({ kind, only: only ?? true });
  });
});

describe('what a fact compares by', () => {
  it('sets case, spacing, accents and punctuation aside; a near duplicate is the same fact', () => {
    expect(memoryWords('  Trains for a MARATHON,  in May! ')).toEqual([
      'trains',
      'for',
      'a',
      'marathon',
      'in',
      'may',
    ]);
    expect(memoryWords('Café au lait')).toEqual(['cafe', 'au', 'lait']);
    const same = (a: string, b: string) => sameFact(memoryWords(a), memoryWords(b));
    expect(same('Trains for a marathon in May.', 'trains for a marathon in may')).toBe(true);
    expect(same('Trains for a marathon.', 'Trains for a marathon in May.')).toBe(true);
    expect(same('Has a sore left knee.', 'Has a sore right knee.')).toBe(false);
    expect(same('Goes by Jo.', 'Goes by Sam.')).toBe(false);
    expect(same('Runs three times a week.', 'Has a sore left knee.')).toBe(false);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('keepExtractedMemory', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 2));
  });
  afterAll(async () => {
    await close?.();
  });

  async function fanWithMessages(count: number) {
    const { creatorId } = await seedCreator(handle.db);
    const fan = await seedFan(handle.db, creatorId);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const row = await handle.db
        .insertInto('messages')
        .values({
          creator_id: creatorId,
          fan_id: fan.id,
          sender: 'fan',
          body: `turn ${i}`,
          status: 'answered',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(String(row.id));
    }
    return { fanId: fan.id, ids };
  }
  const items = async (fanId: string) =>
    (
      await handle.db
        .selectFrom('fan_memory')
        .select(['body', 'source_message_id'])
        .where('fan_id', '=', fanId)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((r) => [r.body, String(r.source_message_id)]);

  it('keeps the same fact once, and a near duplicate replaces the item it repeats', async () => {
    const { fanId, ids } = await fanWithMessages(3);
    const kept = await keepExtractedMemory(handle.db, {
      fanId,
      from: null,
      through: ids[0]!,
      facts: [
        { text: 'Trains for a marathon.', messageId: ids[0]! },
        { text: 'trains  for a Marathon', messageId: ids[0]! },
        { text: 'Has a sore left knee.', messageId: ids[0]! },
      ],
    });
    expect(kept).toBe(2);
    expect(await items(fanId)).toEqual([
      ['Trains for a marathon.', ids[0]],
      ['Has a sore left knee.', ids[0]],
    ]);
    // Extracted again from a later turn: the same fact (punctuation and case aside) adds nothing;
    // a detail added replaces the item, in its place, with its new source.
    const again = await keepExtractedMemory(handle.db, {
      fanId,
      from: ids[0]!,
      through: ids[1]!,
      facts: [
        { text: 'HAS A SORE LEFT KNEE!', messageId: ids[1]! },
        { text: 'Trains for a marathon in May.', messageId: ids[1]! },
      ],
    });
    expect(again).toBe(1);
    expect(await items(fanId)).toEqual([
      ['Trains for a marathon in May.', ids[1]],
      ['Has a sore left knee.', ids[0]],
    ]);
    // A different fact is added.
    await keepExtractedMemory(handle.db, {
      fanId,
      from: ids[1]!,
      through: ids[2]!,
      facts: [{ text: 'Has a sore right knee.', messageId: ids[2]! }],
    });
    expect((await items(fanId)).map(([body]) => body)).toEqual([
      'Trains for a marathon in May.',
      'Has a sore left knee.',
      'Has a sore right knee.',
    ]);
  });

  it(`keeps at most ${MEMORY_MAX_ITEMS} items, the oldest dropped first`, async () => {
    const { fanId, ids } = await fanWithMessages(2);
    // Distinct facts (no two near duplicates of each other).
    const fact = (n: number) => `Fact number ${n} ${'x'.repeat(1 + (n % 7))} about topic ${n * 7919}.`;
    await keepExtractedMemory(handle.db, {
      fanId,
      from: null,
      through: ids[0]!,
      facts: Array.from({ length: 45 }, (_, n) => ({ text: fact(n), messageId: ids[0]! })),
    });
    expect(await items(fanId)).toHaveLength(45);
    await keepExtractedMemory(handle.db, {
      fanId,
      from: ids[0]!,
      through: ids[1]!,
      facts: Array.from({ length: 10 }, (_, n) => ({ text: fact(45 + n), messageId: ids[1]! })),
    });
    const left = (await items(fanId)).map(([body]) => body);
    expect(left).toHaveLength(MEMORY_MAX_ITEMS);
    // The five oldest went; the newest ten are the last, in the order they were said.
    expect(left[0]).toBe(fact(5));
    expect(left.slice(-10)).toEqual(Array.from({ length: 10 }, (_, n) => fact(45 + n)));
    expect(left).not.toContain(fact(4));
  });
});
