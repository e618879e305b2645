/**
 * Server time of an AI answer before the model is asked: from a fan's question (a pending message)
 * to the model request arriving at a loopback OpenAI stand-in, on embedded defaults (PGlite with
 * pgvector, the local sentence encoder). It covers the answer policy, the chatbot, the conversation,
 * the follow-up handling, hybrid retrieval with budget packing and the prompt; the model's own time
 * is not in it. Half the questions are follow-ups (so the model is asked to rewrite them first: that
 * request is model time too, and the clock stops at the first request).
 *
 *   pnpm --filter @fanpilot/answers bench      (BENCH_QUESTIONS, 120 by default)
 */
import { performance } from 'node:perf_hooks';
import { createDb, migrateToLatest } from '@fanpilot/db';
import { createLocalEmbedder } from '@fanpilot/knowledge';
import { startFakeOpenAI } from '@fanpilot/testkit';
import { FOLLOW_UP_CASES, PARAPHRASE_FACTS } from '../../knowledge/quality/paraphrase-set.ts';
import { seedParaphraseSet } from '../../knowledge/quality/seed.ts';
import { answerQuestion } from '../src/handler.ts';

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 120);
const h = createDb({ dataDir: 'memory://' });
await migrateToLatest(h.db);
const seeded = await seedParaphraseSet(h.db, createLocalEmbedder());
const openai = await startFakeOpenAI();
let asked = 0;
openai.answerWith(() => {
  asked = performance.now();
  return 'The material says so.';
});
const env = { OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: openai.baseUrl, EMBEDDINGS: 'local' };
const fan = await h.db
  .insertInto('fans')
  .values({ creator_id: seeded.creatorId, fan_key: 'mobile_fan_bench', name: 'Bench' })
  .returning('id')
  .executeTakeFirstOrThrow();
const ask = async (body: string) =>
  (
    await h.db
      .insertInto('messages')
      .values({
        creator_id: seeded.creatorId,
        fan_id: fan.id,
        sender: 'fan',
        body,
        status: 'pending',
        fan_name: 'Bench',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

const times: number[] = [];
for (let i = 0; i < QUESTIONS + 10; i++) {
  const c = FOLLOW_UP_CASES[i % FOLLOW_UP_CASES.length]!;
  const fact = PARAPHRASE_FACTS[i % PARAPHRASE_FACTS.length]!;
  // Even: a standalone paraphrased question; odd: a follow-up after the turn that names the recipe.
  if (i % 2 === 1) await answerQuestion({ db: h.db, env }, await ask(c.earlier));
  // Each question once: the embedder remembers the vectors of questions it has seen (withQueryCache),
  // and a repeated question would be timed without its embedding.
  const id = await ask(`${i % 2 === 0 ? fact.question : c.question} (${i})`);
  asked = 0;
  const start = performance.now();
  await answerQuestion({ db: h.db, env }, id);
  if (i >= 10 && asked > 0) times.push(asked - start);
}
times.sort((a, b) => a - b);
const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;
console.log(
  `\nanswer path on embedded defaults (PGlite + pgvector, local encoder, ${seeded.posts.size * 4 + 21} items), ${times.length} questions (half follow-ups):`,
);
console.log(
  `  question to model request: p50 ${at(50).toFixed(1)} ms, p95 ${at(95).toFixed(1)} ms   (target p95 < 100 ms; model time excluded)`,
);
await openai.close();
await h.close();
process.exit(0);
