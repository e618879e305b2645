import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import getPort from 'get-port';
import { repoPath } from './repo.ts';

/**
 * Pieces of a multi-process Fanpilot on this machine: the built api and worker as child processes,
 * and a round-robin HTTP proxy standing in for the gateway's load balancing.
 */

export const API_BUNDLE = repoPath('apps/api/dist/server.js');
export const WORKER_BUNDLE = repoPath('apps/worker/dist/main.js');

export function assertBuilt() {
  for (const bundle of [API_BUNDLE, WORKER_BUNDLE]) {
    if (!existsSync(bundle)) {
      throw new Error(
        `${bundle} is missing: run \`pnpm turbo run build --filter=@fanpilot/api --filter=@fanpilot/worker\``,
      );
    }
  }
}

/** A free TCP port on loopback. */
export const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a built process may take to start: about 12 s on a machine at load 30 (migrations, the
 * local encoder's weights), so a loaded CI machine gets room; a process that exits fails at once. */
const START_TIMEOUT_MS = 120_000;

/** Polls `probe` until it returns something truthy; throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  [key: string]: unknown;
}

export interface Proc {
  name: string;
  child: ChildProcess;
  /** Everything it printed on stdout and stderr. */
  output: () => string;
  /** What it printed on stdout. */
  stdout: () => string;
  /** Its stdout lines that are JSON objects (the structured log). */
  logs: () => LogLine[];
  /** Settles when it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive: () => boolean;
  kill: (signal: NodeJS.Signals) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<Proc>();

/** Runs `node script` with exactly `env` (plus PATH); its output is kept for assertions. */
export function spawnNode(name: string, script: string, env: Record<string, string>): Proc {
  let stdout = '';
  let all = '';
  const child = spawn(process.execPath, [script], {
    cwd: repoPath(),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    all += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    all += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const proc: Proc = {
    name,
    child,
    output: () => all,
    stdout: () => stdout,
    logs: () =>
      stdout.split('\n').flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line) as LogLine];
        } catch {
          return [];
        }
      }),
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill(signal) {
      if (proc.alive()) child.kill(signal);
      return exited;
    },
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  return proc;
}

/** SIGKILLs every child still running (afterAll). */
export async function killAll() {
  await Promise.all([...running].map((p) => p.kill('SIGKILL')));
}

/** Starts the built api on `port` and waits until /readyz answers 200 (database, storage, Redis). */
export async function startApi(name: string, port: number, env: Record<string, string>): Promise<Proc> {
  const proc = spawnNode(name, API_BUNDLE, { ...env, PORT: String(port), HOST: '127.0.0.1' });
  let exited = false;
  void proc.exited.then(() => {
    exited = true;
  });
  await waitFor(
    `${name} to be ready`,
    async () => {
      if (exited) throw new Error(`${name} exited while starting:\n${proc.output()}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
      } catch {
        return false;
      }
    },
    START_TIMEOUT_MS,
  );
  return proc;
}

export interface WorkerProc extends Proc {
  healthPort: number;
  /** Knowledge items this worker stored ('ingest finished' with stored: 'stored'). */
  stored: () => string[];
}

/** What the worker logs once it takes jobs: it ingests knowledge and answers fans. */
const WORKER_READY = 'worker ready: ingesting knowledge and answering fans';

/** Starts the built worker and waits for its ready line. */
export async function startWorker(name: string, env: Record<string, string>): Promise<WorkerProc> {
  const proc = spawnNode(name, WORKER_BUNDLE, env);
  let exited = false;
  void proc.exited.then(() => {
    exited = true;
  });
  const ready = await waitFor(
    `${name} to be ready`,
    () => {
      if (exited) throw new Error(`${name} exited while starting:\n${proc.output()}`);
      return proc.logs().find((l) => l.msg === WORKER_READY);
    },
    START_TIMEOUT_MS,
  );
  return Object.assign(proc, {
    healthPort: ready.healthPort as number,
    stored: () =>
      proc
        .logs()
        .filter((l) => l.msg === 'ingest finished' && l.stored === 'stored')
        .map((l) => String(l.item)),
  });
}

// ---------------------------------------------------------------------------------------------------

export interface Upstream {
  host: string;
  port: number;
}

export interface ProxyStats {
  /** Requests each upstream answered, by "host:port". */
  served: Map<string, number>;
  /** Connections an upstream refused (the request was then tried on the next one). */
  refused: Map<string, number>;
  /** Requests lost after reaching an upstream (connection reset, no answer): a 502 to the client. */
  broken: Map<string, number>;
}

export interface RoundRobin {
  url: string;
  port: number;
  stats: ProxyStats;
  /** Which upstream answered each request, in order. */
  log: string[];
  close: () => Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/**
 * A small load balancer on loopback: each request goes to the next upstream in turn, with its
 * headers, cookies and body, plus the X-Forwarded-* and X-Request-Id headers the gateway sets.
 *
 * Passive health check, as nginx does (`proxy_next_upstream error`, `max_fails=1 fail_timeout`):
 * an upstream that refuses the connection is skipped for `failTimeoutMs` and the request goes to the
 * next one. A request that already reached an upstream is not sent again unless its method is
 * idempotent: a POST whose upstream died answers 502 and the client decides (a browser retries).
 */
export async function startRoundRobin(
  upstreams: () => Upstream[],
  options: { failTimeoutMs?: number } = {},
): Promise<RoundRobin> {
  const failTimeoutMs = options.failTimeoutMs ?? 2000;
  const downUntil = new Map<string, number>();
  const stats: ProxyStats = { served: new Map(), refused: new Map(), broken: new Map() };
  const log: string[] = [];
  let next = 0;

  const readBody = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => resolve(Buffer.concat(parts)));
      req.on('error', reject);
    });

  const server: Server = createHttpServer(async (req, res) => {
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch {
      res.destroy();
      return;
    }
    const all = upstreams();
    const start = next++;
    // This request's order of upstreams: round robin, healthy ones first.
    const now = Date.now();
    const order = all.map((_, i) => all[(start + i) % all.length]!);
    const tries = [
      ...order.filter((u) => (downUntil.get(`${u.host}:${u.port}`) ?? 0) <= now),
      ...order.filter((u) => (downUntil.get(`${u.host}:${u.port}`) ?? 0) > now),
    ];
    const client = req.socket.remoteAddress ?? '127.0.0.1';
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    const forwardedFor = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${client}` : client;
    headers['x-real-ip'] = client;
    headers['x-forwarded-proto'] = 'http';
    headers['x-forwarded-host'] = req.headers.host ?? '';
    headers['x-request-id'] = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
    headers['content-length'] = String(body.length);
    headers.connection = 'close';

    for (const upstream of tries) {
      const key = `${upstream.host}:${upstream.port}`;
      const outcome = await new Promise<'done' | 'refused' | 'broken'>((resolve) => {
        let connected = false;
        let answered = false;
        const out = request(
          {
            host: upstream.host,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers,
            agent: false,
          },
          (upstreamRes) => {
            answered = true;
            const resHeaders: Record<string, string | string[]> = {};
            for (const [name, value] of Object.entries(upstreamRes.headers)) {
              if (value !== undefined && !HOP_BY_HOP.has(name)) resHeaders[name] = value;
            }
            res.writeHead(upstreamRes.statusCode ?? 502, resHeaders);
            upstreamRes.pipe(res);
            upstreamRes.on('error', () => res.destroy());
            upstreamRes.on('aborted', () => res.destroy());
            res.on('close', () => resolve('done'));
          },
        );
        out.on('socket', (socket) => socket.once('connect', () => (connected = true)));
        out.on('error', () => {
          if (answered) return;
          resolve(connected ? 'broken' : 'refused');
        });
        out.end(body);
      });
      if (outcome === 'done') {
        bump(stats.served, key);
        log.push(key);
        return;
      }
      downUntil.set(key, Date.now() + failTimeoutMs);
      if (outcome === 'refused') {
        bump(stats.refused, key);
        continue;
      }
      bump(stats.broken, key);
      if (IDEMPOTENT.has(req.method ?? 'GET')) continue;
      res
        .writeHead(502, { 'content-type': 'application/json', 'x-proxy-error': 'upstream-broken' })
        .end('{"error":"bad_gateway","message":"The upstream closed the connection."}');
      return;
    }
    res
      .writeHead(502, { 'content-type': 'application/json', 'x-proxy-error': 'no-upstream' })
      .end('{"error":"bad_gateway","message":"No upstream is reachable."}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A client's cookies, by name. */
export type Jar = Record<string, string>;

/** Keeps the cookies `res` sets in `jar` (and drops those it clears); returns `res`. */
export function keepCookies(jar: Jar, res: Response): Response {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const i = pair!.indexOf('=');
    const name = pair!.slice(0, i);
    const value = pair!.slice(i + 1);
    if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) delete jar[name];
    else jar[name] = value;
  }
  return res;
}

/** A request to `url` as a browser with `jar` would send it (JSON body, no redirects followed). */
export function sendWithCookies(
  url: string,
  method: string,
  jar: Jar,
  body?: unknown,
  signal?: AbortSignal,
): Promise<Response> {
  const cookie = Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  return fetch(url, {
    method,
    redirect: 'manual',
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  }).then((res) => keepCookies(jar, res));
}

/** A one-pixel PNG, for a profile image. */
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Onboards the signed-in creator through `send` as the dashboard does: a pre-signed upload of a
 * profile image, then the sign-up with `chatbotName`. The sign-up's answer.
 */
export async function onboardThrough(
  send: (method: string, path: string, body?: unknown) => Promise<Response>,
  chatbotName: string,
): Promise<Response> {
  const upload = await send('POST', '/api/objects/upload');
  if (upload.status !== 200) throw new Error(`POST /api/objects/upload answered ${upload.status}`);
  const { uploadURL } = (await upload.json()) as { uploadURL: string };
  const put = await fetch(uploadURL, { method: 'PUT', body: ONE_PIXEL_PNG });
  if (!put.ok) throw new Error(`the profile image upload answered ${put.status}`);
  return send('POST', '/api/creator-signup', { chatbotName, profileImageUrl: uploadURL.split('?')[0] });
}
