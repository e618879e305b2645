#!/usr/bin/env node
// A busy creator (issue 12), on the built api with PostgreSQL and Redis: one creator with 10,000
// fans and 200,000 messages beside many small creators. Prints, beside a bare Fastify in the same run:
//   1. the polling mix with validators (If-None-Match) sent: req/s as a share of bare, p50, p99;
//   2. how many open dashboards (10 fans each) that rate carries;
//   3. the api's memory with 10,000 idle event streams open (they stay open for what follows), the
//      api as deployed: S3 and Stripe outside its process (its memory on embedded defaults at rest
//      is printed beside);
//   4. answer stored -> the fan's event stream: p50, p95 (with those streams open);
//   5. each dashboard query at this volume (p50, p99), over HTTP, no validators.
// Sizes: BENCH_BIG_FANS, BENCH_BIG_MESSAGES, BENCH_SMALL_CREATORS, BENCH_DASHBOARDS, BENCH_STREAMS,
// BENCH_SECONDS, BENCH_CONNECTIONS.
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import {
  CONNECTIONS,
  DURATION,
  autocannonRun as load,
  measureBareFastify,
  pg,
  shuffle,
  startBenchApi,
  startOutsideServices,
} from './lib.mjs';

const BIG_FANS = Number(process.env.BENCH_BIG_FANS ?? 10_000);
const BIG_MESSAGES = Number(process.env.BENCH_BIG_MESSAGES ?? 200_000);
const SMALL_CREATORS = Number(process.env.BENCH_SMALL_CREATORS ?? 1_000);
const DASHBOARDS = Number(process.env.BENCH_DASHBOARDS ?? 200);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 'bench-session-secret-0123456789abcdef';

/** A fan token as browsers hold them (FAN_TOKEN_PATTERN: 43 base64url characters). */
const fanToken = (name) => name.padEnd(43, '_');
const hash = (token) => createHash('sha256').update(token).digest('base64url');
/** A cookie as @fastify/cookie signs it (value.HMAC-SHA256, base64 without padding), encoded. */
const signed = (value) =>
  encodeURIComponent(
    `${value}.${createHmac('sha256', SECRET).update(value).digest('base64').replace(/=+$/, '')}`,
  );
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (n) => `${n.toFixed(1)} ms`;
/** CPU seconds a process has used (user + system). */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
};

/** 304s are the point; failures are client-side errors and 4xx/5xx answers. */
const autocannonRun = (url, requests) =>
  load(url, requests, (result) => (result['4xx'] ?? 0) + (result['5xx'] ?? 0));

async function seed(db) {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  const q = (text, values) => client.query(text, values);
  // The seed is written with the triggers off (a script's bulk load), then the counters the
  // triggers keep are computed once, as the migration does.
  await q('set session_replication_role = replica');
  const started = Date.now();
  const creator = async (name, username) => {
    const { rows } = await q(
      `insert into creators (google_sub, email, name, username, description, onboarding_complete)
       values ($1, $2, $3, $4, '', true) returning id`,
      [`bench-${username}`, `${username}@example.com`, name, username],
    );
    const id = rows[0].id;
    await q(
      `insert into chatbots (creator_id, name, instructions, model, temperature) values ($1, $2, '', 'gpt-4o-mini', 0.7)`,
      [id, `${name} bot`],
    );
    await q(`insert into credit_ledger (creator_id, delta, reason) values ($1, 1000000, 'free_grant')`, [id]);
    await q(`insert into sessions (id, creator_id, expires_at) values ($1, $2, now() + interval '1 day')`, [
      hash(`bench-session-${username}`),
      id,
    ]);
    return id;
  };
  const bigId = await creator('Big Creator', 'bigcreator');
  await q(
    `insert into fans (creator_id, fan_key, name, cookie_hash, created_at)
     select $1, 'mobile_fan_big_' || g, 'Fan ' || g,
       translate(rtrim(encode(sha256(convert_to(rpad('bench-fan-' || g, 43, '_'), 'UTF8')), 'base64'), '='), '+/', '-_'),
       now() - interval '40 days'
     from generate_series(1, $2) g`,
    [bigId, BIG_FANS],
  );
  // 200,000 messages over 30 days: fan question, reply, ...; every 7th fan's last question waits.
  await q(
    `insert into messages (creator_id, fan_id, sender, body, status, fan_name, created_at)
     select $1, f.id,
       case when g % 2 = 0 then 'fan' when g % 4 = 1 then 'Creatorai' else 'creator' end,
       'Message ' || g || ' in a long conversation about training plans and recovery',
       case when g % 2 = 0 then (case when (g / 2) % 7 = 0 and g > $3 - 2 * $2 then 'pending' else 'answered' end) else null end,
       f.name,
       now() - interval '30 days' + (g::float / $3) * interval '30 days'
     from generate_series(1, $3) g
     join fans f on f.creator_id = $1 and f.fan_key = 'mobile_fan_big_' || (1 + g % $2)`,
    [bigId, BIG_FANS, BIG_MESSAGES],
  );
  const small = [];
  for (let i = 0; i < SMALL_CREATORS; i++) small.push(await creator(`Small ${i}`, `small${i}`));
  await q(
    `insert into fans (creator_id, fan_key, name, cookie_hash)
     select c.id, 'mobile_fan_small_' || c.username || '_' || g, 'Fan ' || g,
       translate(rtrim(encode(sha256(convert_to(rpad('bench-fan-' || c.username || '-' || g, 43, '_'), 'UTF8')), 'base64'), '='), '+/', '-_')
     from creators c, generate_series(1, 10) g where c.username like 'small%'`,
  );
  await q(
    `insert into messages (creator_id, fan_id, sender, body, status, fan_name, created_at)
     select f.creator_id, f.id, s.sender, 'Hello from ' || f.name, s.status, f.name, now() - s.ago
     from fans f join creators c on c.id = f.creator_id and c.username like 'small%',
       (values ('fan', 'answered', interval '2 hours'), ('Creatorai', null, interval '1 hour')) as s(sender, status, ago)`,
  );
  await q('set session_replication_role = origin');
  await q(`update fans f set message_count = s.n, pending_count = s.p, last_message_at = s.last,
      last_fan_message_at = s.last_fan, last_activity_at = greatest(f.created_at, s.last)
    from (select fan_id, count(*)::int n, (count(*) filter (where status = 'pending'))::int p,
            max(created_at) last, max(created_at) filter (where sender = 'fan') last_fan
          from messages group by fan_id) s
    where s.fan_id = f.id`);
  await q(`insert into credit_totals (creator_id, balance, used, free, purchased)
    select creator_id, sum(delta), 0, sum(delta), 0 from credit_ledger group by creator_id
    on conflict (creator_id) do nothing`);
  await q('analyze');
  const count = (await q('select count(*)::int n from messages')).rows[0].n;
  await client.end();
  return { bigId, small, seconds: (Date.now() - started) / 1000, messages: count };
}

/** Opens `n` event streams (raw sockets) and resolves once each has its 200. */
async function openStreams(port, paths) {
  const sockets = [];
  let opened = 0;
  let failed = 0;
  const one = ({ path: p, cookie }) =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let head = '';
      const onData = (chunk) => {
        head += chunk.toString('latin1');
        if (head.includes('\r\n')) {
          socket.off('data', onData);
          if (head.startsWith('HTTP/1.1 200')) opened++;
          else failed++;
          resolve();
        }
      };
      socket.on('data', onData);
      socket.on('error', () => {
        failed++;
        resolve();
      });
      socket.write(
        `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCookie: ${cookie}\r\n\r\n`,
      );
      sockets.push(socket);
    });
  for (let i = 0; i < paths.length; i += 200) await Promise.all(paths.slice(i, i + 200).map(one));
  return { sockets, opened, failed };
}

/** The api's memory on embedded defaults (its object store and the local Stripe in-process), at rest. */
async function embeddedRestMb() {
  const embedded = await startBenchApi('inbox_embedded', {
    REDIS_URL,
    JOBS_PREFIX: `fp-bench-e-${Date.now()}`,
  });
  try {
    await new Promise((r) => setTimeout(r, 8_000));
    return rssMb(embedded.child.pid);
  } finally {
    await embedded.stop();
  }
}

async function main() {
  const embeddedAtRest = await embeddedRestMb();
  // The api as deployed (infra/k8s): PostgreSQL, Redis, S3 and Stripe are services outside it.
  const outside = await startOutsideServices();
  const running = await startBenchApi('inbox', {
    ...outside.env,
    REDIS_URL,
    JOBS_PREFIX: `fp-bench-${Date.now()}`,
    SESSION_SECRET: SECRET,
    ...(process.env.BENCH_API_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_API_NODE_OPTIONS } : {}),
  });
  const { child: api, port, base, databaseUrl } = running;
  let sockets = [];
  const cleanup = async () => {
    for (const s of sockets) s.destroy();
    await running.stop();
    await outside.stop();
  };
  try {
    const atReady = rssMb(api.pid);
    const seeded = await seed(databaseUrl);
    await new Promise((r) => setTimeout(r, 1_000));
    const afterSeed = rssMb(api.pid);
    console.log(
      `\ninbox at scale: seeded ${seeded.messages.toLocaleString('en-US')} messages (${BIG_FANS.toLocaleString('en-US')} fans of one creator, ${SMALL_CREATORS} small creators with 10 fans) in ${seeded.seconds.toFixed(1)} s`,
    );
    // 3. Idle event streams: the big creator's fans.
    const before = rssMb(api.pid);
    console.log(
      `  api memory: ${atReady.toFixed(0)} MB when ready, ${afterSeed.toFixed(0)} MB after the seed (as deployed: S3 and Stripe outside the process; on embedded defaults, with its own object store and local Stripe, ${embeddedAtRest.toFixed(0)} MB at rest)`,
    );
    const streamPaths = [];
    for (let f = 1; f <= Math.min(STREAMS, BIG_FANS); f++) {
      streamPaths.push({
        path: `/api/events/fans/mobile_fan_big_${f}?creator=bigcreator`,
        cookie: `fp_fan=${signed(fanToken(`bench-fan-${f}`))}`,
      });
    }
    const t0 = performance.now();
    const streams = await openStreams(port, streamPaths);
    sockets = streams.sockets;
    const openSeconds = (performance.now() - t0) / 1000;
    // Idle streams: the figure once the api has settled (V8 gives back what opening them left
    // behind when its allocation rate falls): read every second for 20 s, the last reading.
    const settled = [];
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 1_000));
      settled.push(rssMb(api.pid));
    }
    if (process.env.BENCH_STREAMS_TRACE)
      console.log(`    rss each second: ${settled.map((v) => v.toFixed(0)).join(' ')}`);
    const after = settled.at(-1);
    console.log(
      `  ${streams.opened.toLocaleString('en-US')} idle event streams open (${streams.failed} refused) in ${openSeconds.toFixed(1)} s: api memory ${after.toFixed(0)} MB (${before.toFixed(0)} MB before; target < 400 MB)`,
    );
    console.log(
      `    ratio to the api at rest (same run): ${(after / before).toFixed(2)}; ${(((after - before) * 1024) / Math.max(1, streams.opened)).toFixed(1)} KB a stream`,
    );
    // BENCH_STREAMS_ONLY=1: stop after the memory figure (what each stream holds: run the api with
    // BENCH_API_NODE_OPTIONS=--heapsnapshot-signal=SIGUSR2 and signal it before and after).
    if (process.env.BENCH_STREAMS_ONLY) {
      if (process.env.BENCH_API_NODE_OPTIONS?.includes('--heapsnapshot-signal')) {
        api.kill('SIGUSR2');
        await new Promise((r) => setTimeout(r, 30_000));
      }
      return;
    }

    const bigCookie = `fp_session=${signed('bench-session-bigcreator')}`;
    // 4. An answer stored -> the fan's stream has it, with those streams open.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows: waiting } = await client.query(
      `select m.id, f.fan_key from messages m join fans f on f.id = m.fan_id
       where m.creator_id = $1 and m.status = 'pending' and f.fan_key = any($2::text[])
       order by m.id desc limit 50`,
      [seeded.bigId, streamPaths.map((p) => p.path.split('/')[4].split('?')[0])],
    );
    await client.end();
    const delays = [];
    const socketOf = new Map(
      streamPaths.map((s, i) => [s.path.split('/')[4].split('?')[0], streams.sockets[i]]),
    );
    for (const row of waiting) {
      const socket = socketOf.get(row.fan_key);
      if (!socket) continue;
      const heard = new Promise((resolve) => {
        const onData = (chunk) => {
          if (chunk.toString('utf8').includes('event: change')) {
            socket.off('data', onData);
            resolve(performance.now());
          }
        };
        socket.on('data', onData);
      });
      const sent = performance.now();
      const res = await fetch(`${base}/api/answer`, {
        method: 'POST',
        headers: { cookie: bigCookie, 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ creator: 'bigcreator', messageId: String(row.id), response: 'Answered live' }),
      });
      const stored = performance.now();
      if (res.status !== 200) throw new Error(`answer: ${res.status} ${await res.text()}`);
      const at = await heard;
      delays.push({ fromSend: at - sent, fromStored: Math.max(0, at - stored), request: stored - sent });
    }
    const fromSend = delays.map((d) => d.fromSend).sort((a, b) => a - b);
    console.log(
      `  answer sent -> the fan's stream has it (${delays.length} answers, ${streams.opened.toLocaleString('en-US')} streams open): p50 ${ms(quantile(fromSend, 0.5))}  p95 ${ms(quantile(fromSend, 0.95))} (target < 150 ms; the event is sent at commit, before the answer call returns)`,
    );
    // Cache-Control: no-cache: the query itself is timed, not the api's kept answer (record 0086).
    const get = async (p, cookie = bigCookie) => {
      const t0 = performance.now();
      const res = await fetch(`${base}${p}`, { headers: { cookie, 'cache-control': 'no-cache' } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${body.slice(0, 200)}`);
      return { ms: performance.now() - t0, body: JSON.parse(body), etag: res.headers.get('etag') };
    };

    // 5. Each dashboard query at this volume.
    const stats = (await get('/api/creators/username/bigcreator/stats?tz=UTC')).body;
    if (stats.fans !== BIG_FANS) throw new Error(`stats counted ${stats.fans} fans, not ${BIG_FANS}`);
    let cursor = null;
    for (let i = 0; i < 20; i++) {
      const page = (
        await get(`/api/creators/username/bigcreator/conversations${cursor ? `?cursor=${cursor}` : ''}`)
      ).body;
      cursor = page.nextCursor;
    }
    const older = (
      await get('/api/creators/username/bigcreator/fans/mobile_fan_big_42/conversation?limit=10')
    ).body.olderCursor;
    const queries = [
      ['stats (every count)', '/api/creators/username/bigcreator/stats?tz=Europe/Berlin'],
      ['conversations, first page', '/api/creators/username/bigcreator/conversations'],
      // (A smaller seed, BENCH_BIG_FANS / BENCH_BIG_MESSAGES, may have no page 21 or no older page.)
      ...(cursor
        ? [
            [
              'conversations, page 21 (cursor)',
              `/api/creators/username/bigcreator/conversations?cursor=${cursor}`,
            ],
          ]
        : []),
      ['conversations waiting', '/api/creators/username/bigcreator/conversations?filter=waiting'],
      ['conversations, search by name', '/api/creators/username/bigcreator/conversations?q=Fan%20424'],
      [
        'a conversation, newest page',
        '/api/creators/username/bigcreator/fans/mobile_fan_big_42/conversation',
      ],
      ...(older
        ? [
            [
              'a conversation, older page',
              `/api/creators/username/bigcreator/fans/mobile_fan_big_42/conversation?limit=10&before=${older}`,
            ],
          ]
        : []),
      ['latest 20 messages', '/api/creators/username/bigcreator/messages?limit=20'],
    ];
    console.log(
      `  each dashboard query at this volume (HTTP, 100 reads each, no validators, Cache-Control: no-cache):`,
    );
    for (const [label, p] of queries) {
      const times = [];
      for (let i = 0; i < 100; i++) times.push((await get(p)).ms);
      times.sort((a, b) => a - b);
      console.log(
        `    ${label.padEnd(34)} p50 ${ms(quantile(times, 0.5))}  p99 ${ms(quantile(times, 0.99))}`,
      );
    }

    // 1, 2. The polling mix: DASHBOARDS small creators' dashboards and their 10 fans each, with
    // validators. Each URL was read once, so each request carries its If-None-Match.
    const requests = [];
    for (let d = 0; d < Math.min(DASHBOARDS, SMALL_CREATORS); d++) {
      const u = `small${d}`;
      const cookie = `fp_session=${signed(`bench-session-${u}`)}`;
      const chatbotId = (await get(`/api/creators/username/${u}/chatbot`, cookie)).body.id;
      const block = [];
      const add = async (n, p, c) => {
        const { etag } = await get(p, c);
        for (let i = 0; i < n; i++)
          block.push({ method: 'GET', path: p, headers: { cookie: c, 'if-none-match': etag } });
      };
      // Two minutes of one dashboard: status every 2 s; messages, stats, conversations and
      // knowledge progress every 5 s; usage every 60 s.
      await add(60, `/api/creators/username/${u}/status`, cookie);
      await add(24, `/api/creators/username/${u}/messages?limit=20`, cookie);
      await add(24, `/api/creators/username/${u}/stats?tz=UTC`, cookie);
      await add(24, `/api/creators/username/${u}/conversations`, cookie);
      await add(24, `/api/chatbots/${chatbotId}/knowledge/progress`, cookie);
      await add(2, `/api/creators/username/${u}/usage`, cookie);
      // …and its fans' chats: history and the creator's card every 8 s.
      for (let f = 1; f <= 10; f++) {
        const fanCookie = `fp_fan=${signed(fanToken(`bench-fan-${u}-${f}`))}`;
        await add(15, `/api/chatlog/fan/mobile_fan_small_${u}_${f}?creator=${u}`, fanCookie);
        await add(15, `/api/public/creators/${u}`, fanCookie);
      }
      requests.push(...block);
    }
    shuffle(requests);
    const cpuBefore = cpuSeconds(api.pid);
    const loadFrom = running.sinceStart();
    const mix = await autocannonRun(base, requests);
    const loadTo = running.sinceStart();
    const apiCpu = cpuSeconds(api.pid) - cpuBefore;
    const bare = await measureBareFastify();
    const perDashboard = requests.length / Math.min(DASHBOARDS, SMALL_CREATORS) / 120;
    console.log(
      `  polling mix with validators (${Math.min(DASHBOARDS, SMALL_CREATORS)} dashboards with 10 fans each, ${CONNECTIONS} connections, ${DURATION} s):`,
    );
    console.log(
      `    fanpilot api : ${mix.rps} req/s  p50 ${mix.p50} ms  p99 ${mix.p99} ms  (${mix.total} requests: ${JSON.stringify(mix.codes)})`,
    );
    console.log(`    bare fastify : ${bare.rps} req/s  p50 ${bare.p50} ms  p99 ${bare.p99} ms`);
    console.log(
      `    api process CPU during the mix: ${apiCpu.toFixed(1)} s of ${DURATION} s (${((apiCpu / mix.total) * 1e6).toFixed(0)} µs per request)`,
    );
    if (mix.errors > 0) {
      console.error(`    ${mix.errors} requests of the mix failed or answered 4xx/5xx`);
      process.exitCode = 1;
    }
    console.log(`    share of bare: ${(mix.rps / bare.rps).toFixed(2)} (target >= 0.7), p99 target < 10 ms`);
    if (process.env.BENCH_CPU_PROF) {
      console.log(
        `    profile: node scripts/bench/top-frames.mjs ${process.env.BENCH_CPU_PROF}/<file> --from ${loadFrom.toFixed(1)} --to ${loadTo.toFixed(1)}`,
      );
    }
    console.log(
      `    one dashboard with 10 fan chats polls ${perDashboard.toFixed(2)} req/s: this api carries ~${Math.floor(mix.rps / perDashboard).toLocaleString('en-US')} dashboards and ${(Math.floor(mix.rps / perDashboard) * 10).toLocaleString('en-US')} fan chats (target 1,000 and 10,000)`,
    );
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
