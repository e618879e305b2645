import { inboxRepository, saveCorrection } from '@fanpilot/core';
import { seedCreator, seedFan, seedKnowledge, seedQuestion } from '@fanpilot/testkit';
import { beforeEach, describe, expect, it } from 'vitest';
import { answerTestbed } from '../test/testbed.ts';
import { answerQuestion } from './handler.ts';
import { tryChatbot } from './playground.ts';

// Issue 25, the product half: citations follow use, hand-overs keep the question waiting,
// corrections win, the playground costs nothing.

describe('answers that understand the fan', () => {
  const bed = answerTestbed(4);
  beforeEach(() => bed.openai.answerWith(() => 'Echo'));

  async function fixture(model = 'gpt-4o-mini') {
    const seeded = await seedCreator(bed.db, { model, name: 'Maya Stone' });
    const starter = await seedKnowledge(bed.db, seeded.chatbotId, {
      url: 'https://maya.example/starter',
      title: 'Starter care',
      content: 'Feed your sourdough starter twice a day with equal weights of flour and water.',
    });
    const oven = await seedKnowledge(bed.db, seeded.chatbotId, {
      url: 'https://maya.example/oven',
      title: 'Oven',
      content: 'Bake sourdough loaves at 250 degrees with steam for the first twenty minutes.',
    });
    const fanKey = `fan_${seeded.chatbotId}`;
    const fan = { ...(await seedFan(bed.db, seeded.creatorId, { fanKey, name: 'Finn' })), fanKey };
    const ask = (body: string) => seedQuestion(bed.db, fan, body);
    const reply = (questionId: string) =>
      bed.db
        .selectFrom('messages')
        .selectAll()
        .where('reply_to', '=', questionId)
        .where('sender', '=', 'Creatorai')
        .executeTakeFirstOrThrow();
    const question = (id: string) =>
      bed.db
        .selectFrom('messages')
        .select(['status', 'ai_handed_over_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const systemPrompt = () => String(bed.openai.requests.at(-1)!.messages[0]!.content);
    return { ...seeded, starter, oven, fan, ask, reply, question, systemPrompt };
  }

  it('cites exactly the excerpts the answer marks, renumbered, and asks the model to mark them', async () => {
    const f = await fixture();
    let oven = 0;
    bed.openai.answerWith((r) => {
      const system = String(r.messages[0]!.content);
      oven = Number(/\[(\d+)\] Oven/.exec(system)?.[1]);
      return `Bake it hot with steam [${oven}].`;
    });
    const q = await f.ask('How hot do I bake sourdough, and how often do I feed the starter?');
    expect(await answerQuestion(bed.deps, q)).toBe('answered');
    expect(f.systemPrompt()).toContain('Cite the numbered excerpts you used');
    const r = await f.reply(q);
    // Only the oven passage was used: one source, the marker renumbered to [1].
    expect(r.body).toBe('Bake it hot with steam [1].');
    expect(r.sources).toEqual([expect.objectContaining({ title: 'Oven', kind: 'web' })]);
    expect(oven).toBeGreaterThan(0);
  });

  it('no marker: the single best source; a gap: no source, and the question waits for the creator', async () => {
    const f = await fixture();
    bed.openai.answerWith(() => 'Twice a day.');
    const q1 = await f.ask('How often should I feed my sourdough starter?');
    expect(await answerQuestion(bed.deps, q1)).toBe('answered');
    const r1 = await f.reply(q1);
    expect(r1.sources).toHaveLength(1);
    expect(r1.sources![0]!.title).toBe('Starter care');

    bed.openai.answerWith(
      () => "Maya's material does not cover that [1]; Maya will see your question. [not in knowledge]",
    );
    const before = await inboxRepository(bed.db).counts(f.creatorId, new Date(0));
    const q2 = await f.ask('Which running shoes do you wear?');
    expect(await answerQuestion(bed.deps, q2)).toBe('answered');
    const r2 = await f.reply(q2);
    expect(r2.body).toBe("Maya's material does not cover that; Maya will see your question.");
    expect(r2.sources).toEqual([]);
    // Handed over: pending, counted as waiting, never answered by the AI again.
    expect(await f.question(q2)).toMatchObject({ status: 'pending', ai_handed_over_at: expect.anything() });
    const after = await inboxRepository(bed.db).counts(f.creatorId, new Date(0));
    expect(after.pendingQuestions).toBe(before.pendingQuestions + 1);
    expect(after.waitingFans).toBe(1);
    const requests = bed.openai.requests.length;
    expect(await answerQuestion(bed.deps, q2)).toBe('already_answered');
    expect(bed.openai.requests.length).toBe(requests);
    // Until the creator answers it.
    const { sendToFan } = await import('@fanpilot/core');
    await sendToFan({ db: bed.db }, { creatorId: f.creatorId, to: f.fan.fanKey, text: 'Trail shoes.' });
    expect((await f.question(q2)).status).toBe('answered');
    expect((await inboxRepository(bed.db).counts(f.creatorId, new Date(0))).pendingQuestions).toBe(
      before.pendingQuestions,
    );
  });

  it('a correction wins for its question and paraphrases: on top of the prompt, marked authoritative, and cited', async () => {
    const f = await fixture();
    bed.openai.answerWith(() => 'Once a week.');
    const q1 = await f.ask('How often should I feed my sourdough starter?');
    await answerQuestion(bed.deps, q1);
    const wrong = await f.reply(q1);
    await saveCorrection(bed.db, {
      creatorId: f.creatorId,
      question: 'How often should I feed my sourdough starter?',
      answer: 'Every 12 hours, with rye flour.',
      embedding: null,
      embeddingModel: null,
      messageId: String(wrong.id),
    });
    bed.openai.answerWith((r) => {
      const system = String(r.messages[0]!.content);
      return system.includes("[1] Maya Stone's own answer") ? 'Every 12 hours [1].' : 'Once a week.';
    });
    // The next fan asks in other words.
    const q2 = await f.ask('How often do you feed the sourdough starter?');
    await answerQuestion(bed.deps, q2);
    expect(f.systemPrompt()).toMatch(
      /\[1\] Maya Stone's own answer to “How often should I feed my sourdough starter\?” \(AUTHORITATIVE/,
    );
    expect(f.systemPrompt()).toContain('Every 12 hours, with rye flour.');
    const r2 = await f.reply(q2);
    expect(r2.body).toBe('Every 12 hours [1].');
    expect(r2.sources).toEqual([{ title: "Maya Stone's own answer", source: 'Answer by Maya Stone' }]);

    // An unrelated question is not taken over by the correction.
    const q3 = await f.ask('How hot is the oven for sourdough loaves?');
    await answerQuestion(bed.deps, q3);
    expect(f.systemPrompt()).not.toContain('AUTHORITATIVE');
  });

  it('the embedded answerer answers from a correction as it is', async () => {
    const f = await fixture('claude-3-haiku-20240307');
    await saveCorrection(bed.db, {
      creatorId: f.creatorId,
      question: 'Do you ship abroad?',
      answer: 'Yes, to every EU country.',
      embedding: null,
      embeddingModel: null,
    });
    const q = await f.ask('do you ship abroad');
    expect(await answerQuestion({ db: bed.db, env: {} }, q)).toBe('answered');
    expect((await f.reply(q)).body).toBe('Yes, to every EU country. [1]');
  });

  it('the playground answers with sources and passages, and stores and charges nothing', async () => {
    const f = await fixture();
    const count = async () => ({
      messages: Number(
        (
          await bed.db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('creator_id', '=', f.creatorId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
      ledger: Number(
        (
          await bed.db
            .selectFrom('credit_ledger')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('creator_id', '=', f.creatorId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
      fans: Number(
        (
          await bed.db
            .selectFrom('fans')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('creator_id', '=', f.creatorId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    });
    const before = await count();
    bed.openai.answerWith((r) => {
      const n = /\[(\d+)\] Starter care/.exec(String(r.messages[0]!.content))?.[1];
      return `Twice a day [${n}].`;
    });
    const tried = await tryChatbot(bed.deps, {
      creatorId: f.creatorId,
      creatorName: 'Maya Stone',
      question: 'How often should I feed my sourdough starter?',
    });
    expect(tried.body).toBe('Twice a day [1].');
    expect(tried.sources.map((s) => s.title)).toEqual(['Starter care']);
    expect(tried.passages.map((p) => p.title)).toContain('Starter care');
    expect(tried.model).toBe('gpt-4o-mini');
    expect(await count()).toEqual(before);
    await expect(
      tryChatbot(bed.deps, { creatorId: f.creatorId, creatorName: 'Maya Stone', question: '   ' }),
    ).rejects.toMatchObject({ reason: 'invalid' });
  });
});
