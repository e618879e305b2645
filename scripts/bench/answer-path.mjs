#!/usr/bin/env node
import { spawn } from 'node:child_process';
// The answer path (issue 39), on the built api and worker with PostgreSQL and Redis and a model
// stand-in that writes each answer over 3 s (BENCH_MODEL_MS):
//   1. from the model's last token to the fan's screen: the stored answer's event on the fan's open
//      stream and the chat log read it prompts (store, notify, stream, read): p50, p95;
//   2. fairness: another creator's whole answer time (question sent -> answer on screen) on a quiet
//      server, and again while one creator has BENCH_FLOOD questions (1,500) queued for the AI.
// Each figure is printed beside its baseline from the same run (the model's own time; the quiet
// server).
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  cookiesOf,
  freePort,
  jarHeader,
  must,
  pg,
  requireFromApi,
  root,
  signUpCreator,
  startBenchApi,
} from './lib.mjs';

const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 3000);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 1500);
const SAMPLES = Number(process.env.BENCH_ANSWERS ?? 8);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95), n: s.length };
};
const ms = (n) => `${Math.round(n)} ms`;

/** An OpenAI-compatible model that streams each answer over MODEL_MS; notes when its last token went. */
async function startModel() {
  const lastToken = new Map();
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      const text = JSON.stringify(body.messages ?? []);
      const marker = /BENCHQ-[a-z0-9-]+/.exec(text)?.[0] ?? 'unknown';
      const words = 'Here is what the material says about it, in ten words.'.split(' ');
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        setTimeout(() => {
          lastToken.set(marker, performance.now());
          res.end(
            JSON.stringify({
              id: 'bench',
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model: body.model,
              choices: [
                { index: 0, message: { role: 'assistant', content: words.join(' ') }, finish_reason: 'stop' },
              ],
              usage: { prompt_tokens: 1, completion_tokens: 10, total_tokens: 11 },
            }),
          );
        }, MODEL_MS);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta, finish) =>
        `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }, null));
      let i = 0;
      const every = MODEL_MS / words.length;
      const next = () => {
        if (i < words.length) {
          res.write(chunk({ content: `${words[i++]} ` }, null));
          if (i === words.length) lastToken.set(marker, performance.now());
          setTimeout(next, i === words.length ? 0 : every);
          return;
        }
        res.write(chunk({}, 'stop'));
        res.end('data: [DONE]\n\n');
      };
      setTimeout(next, every);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, lastToken, close: () => server.close() };
}

/** Opens a fan's event stream; `next(name)` resolves when an event of that name arrives. */
async function fanStream(base, fanId, username, cookie) {
  const res = await fetch(`${base}/api/events/fans/${fanId}?creator=${username}`, {
    headers: { cookie, accept: 'text/event-stream' },
  });
  if (res.status !== 200) throw new Error(`fan stream: ${res.status} ${await res.text()}`);
  const waiting = [];
  const decoder = new TextDecoder();
  let buffer = '';
  (async () => {
    try {
      for await (const bytes of res.body) {
        buffer += decoder.decode(bytes, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          for (const w of waiting.filter((x) => x.name === name && x.when(data))) {
            waiting.splice(waiting.indexOf(w), 1);
            w.resolve(performance.now());
          }
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {}
  })();
  return {
    next: (name, when = () => true) => new Promise((resolve) => waiting.push({ name, when, resolve })),
    close: () => res.body.cancel().catch(() => {}),
  };
}

async function main() {
  const model = await startModel();
  const { OAuth2Server, Events } = await import(
    pathToFileURL(requireFromApi.resolve('oauth2-mock-server')).href
  );
  let identity = { sub: 'bench-a', name: 'Bench A', email: 'a@example.com' };
  const oidc = new OAuth2Server();
  await oidc.issuer.keys.generate('RS256');
  oidc.service.on(Events.BeforeTokenSigning, (token) => Object.assign(token.payload, identity));
  oidc.service.on(Events.BeforeUserinfo, (response) => {
    response.body = { ...identity, email_verified: true };
  });
  await oidc.start(0, '127.0.0.1');
  const prefix = `fp-bench-answers-${Date.now()}`;
  const shared = {
    REDIS_URL,
    JOBS_PREFIX: prefix,
    OPENAI_API_KEY: 'bench-key',
    OPENAI_BASE_URL: model.url,
    EMBEDDINGS: 'off',
  };
  const running = await startBenchApi('answers', {
    ...shared,
    GOOGLE_CLIENT_ID: 'fanpilot-bench',
    GOOGLE_CLIENT_SECRET: 'fanpilot-bench-secret',
    OAUTH_ISSUER: oidc.issuer.url,
    ASK_RATE_LIMIT_PER_FAN: '1000000',
  });
  const { base, databaseUrl } = running;
  const workerPort = await freePort();
  const worker = spawn(process.execPath, [path.join(root, 'apps/worker/dist/main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(root, '.data-bench-worker'),
      LOG_LEVEL: 'warn',
      WORKER_HEALTH_PORT: String(workerPort),
      // BENCH_ANSWER_CONCURRENCY=4: answers with the other queues' number in flight, as before issue 39.
      ...(process.env.BENCH_ANSWER_CONCURRENCY
        ? { WORKER_ANSWER_CONCURRENCY: process.env.BENCH_ANSWER_CONCURRENCY }
        : {}),
      // Answers need no object store; the worker's client is made all the same (nothing is sent).
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_ACCESS_KEY_ID: 'bench',
      S3_SECRET_ACCESS_KEY: 'bench-secret',
      S3_BUCKET: 'bench',
      S3_FORCE_PATH_STYLE: 'true',
      ...shared,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const db = new pg.Client({ connectionString: databaseUrl });
  const cleanup = async () => {
    worker.kill('SIGTERM');
    await new Promise((r) => (worker.exitCode === null ? worker.once('exit', r) : r()));
    await db.end().catch(() => {});
    await running.stop();
    await oidc.stop();
    model.close();
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${workerPort}/readyz`)).ok) break;
      } catch {}
      if (worker.exitCode !== null || i > 600) throw new Error('the worker did not become ready');
      await new Promise((r) => setTimeout(r, 200));
    }
    await db.connect();
    // Two creators, both Offline (the AI answers), with credits and a budget for every question.
    const creators = {};
    for (const who of ['flood', 'other']) {
      identity = { sub: `bench-${who}`, name: `Bench ${who}`, email: `${who}@example.com` };
      const { cookie } = await signUpCreator(base, `Bench ${who} bot`);
      const user = await (
        await must('user', await fetch(`${base}/api/auth/user`, { headers: { cookie } }))
      ).json();
      creators[who] = user.username;
      await db.query('update creators set is_online = false where id = $1', [user.id]);
      await db.query('update chatbots set daily_ai_budget = 100000 where creator_id = $1', [user.id]);
      await db.query(
        `insert into credit_ledger (creator_id, delta, reason) values ($1, 100000000, 'adjustment')`,
        [user.id],
      );
    }

    let asked = 0;
    /** One fan asks `username`; resolves with the times of its answer on the way to the screen. */
    const ask = async (username, { watch = true } = {}) => {
      const marker = `BENCHQ-${username.toLowerCase()}-${++asked}`;
      const fanId = `mobile_fan_${marker.replace(/-/g, '_')}`;
      // The fan's first read gives its browser the fan cookie; its stream opens with its first question.
      const first = await fetch(`${base}/api/chatlog/fan/${fanId}?creator=${username}`);
      await first.arrayBuffer();
      const cookie = jarHeader(cookiesOf(first));
      const sent = performance.now();
      const res = await fetch(`${base}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: base },
        body: JSON.stringify({ creator: username, message: `What does the material say? ${marker}`, fanId }),
      });
      if (res.status !== 200) throw new Error(`ask: ${res.status} ${await res.text()}`);
      const answer = await res.json();
      if (!answer.aiWillAnswer)
        throw new Error(`the AI will not answer ${username}: ${JSON.stringify(answer)}`);
      if (!watch) return null;
      const stream = await fanStream(base, fanId, username, cookie);
      // The stored answer: a change to the conversation after the model's last token.
      const changed = stream.next('change', () => model.lastToken.has(marker));
      const eventAt = await changed;
      const log = await (
        await fetch(`${base}/api/chatlog/fan/${fanId}?creator=${username}`, { headers: { cookie } })
      ).json();
      const screenAt = performance.now();
      stream.close();
      const ai = log.messages.find((m) => m.from !== 'fan' && m.message.includes('material says'));
      if (!ai) throw new Error(`the chat log has no answer for ${marker}`);
      const last = model.lastToken.get(marker);
      return { total: screenAt - sent, afterModel: screenAt - last, event: eventAt - last };
    };

    // 1. Quiet server: the answer path, one question at a time.
    const quiet = [];
    for (let i = 0; i < SAMPLES; i++) quiet.push(await ask(creators.other));
    // 2. One creator's flood queued, then the other creator's questions again.
    const floodStart = performance.now();
    for (let i = 0; i < FLOOD; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, FLOOD - i) }, () => ask(creators.flood, { watch: false })),
      );
    }
    const floodSeconds = (performance.now() - floodStart) / 1000;
    const busy = [];
    for (let i = 0; i < SAMPLES; i++) busy.push(await ask(creators.other));
    const queued = await (await fetch(`http://127.0.0.1:${workerPort}/queue-depth`)).json();

    const q = stats(quiet.map((x) => x.afterModel));
    const qe = stats(quiet.map((x) => x.event));
    const qt = stats(quiet.map((x) => x.total));
    const bt = stats(busy.map((x) => x.total));
    const ba = stats(busy.map((x) => x.afterModel));
    console.log(
      `\nanswer path (PostgreSQL, Redis, one worker; a model that writes each answer over ${MODEL_MS} ms)`,
    );
    console.log(
      `  model's last token -> the fan's screen (event + chat log read): p50 ${ms(q.p50)}  p95 ${ms(q.p95)}  (event alone p95 ${ms(qe.p95)}; target p95 < 300 ms)`,
    );
    console.log(
      `    as a ratio to the model's own time (same run): ${(q.p95 / MODEL_MS).toFixed(3)} of ${MODEL_MS} ms`,
    );
    console.log(
      `  fairness: another creator's answer (question -> screen) p50 ${ms(qt.p50)} quiet, ${ms(bt.p50)} with ${FLOOD.toLocaleString('en-US')} questions of one creator queued (${queued.queued} jobs queued after; flood sent in ${floodSeconds.toFixed(1)} s)`,
    );
    console.log(
      `    slower by ${ms(bt.p50 - qt.p50)} at p50, ${ms(bt.p95 - qt.p95)} at p95 (target <= 200 ms); ratio to quiet ${(bt.p50 / qt.p50).toFixed(2)}; last token -> screen during the flood p95 ${ms(ba.p95)}`,
    );
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
