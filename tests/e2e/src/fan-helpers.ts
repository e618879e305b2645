/**
 * Helpers for the fan app's browser tests: the built api on a free port, a creator onboarded through
 * the real sign-in, and Chromium as a 390 x 844 phone. Names carry "fan" so they never clash with
 * other suites' helpers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, watchCsp } from './helpers/browser.ts';
import { drawPng } from './helpers/png.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FAN_RESULTS_DIR = fileURLToPath(new URL('../test-results/', import.meta.url));
export const FAN_PHONE_VIEWPORT = { width: 390, height: 844 };

/** A free TCP port on loopback. */
export const fanFreePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

export interface FanTestApi {
  url: string;
  /** What the server printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts the built api (which serves the built fan app) with its embedded database, storage and sign-in. */
export async function startFanTestApi(extraEnv: Record<string, string> = {}): Promise<FanTestApi> {
  const server = path.join(REPO_ROOT, 'apps/api/dist/server.js');
  const fanIndex = path.join(REPO_ROOT, 'apps/fan-pwa/dist/index.html');
  for (const built of [server, fanIndex]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`pnpm build\` first`);
  }
  // A test that must know the origin first (the extension is built for it) passes its PORT.
  const port = extraEnv.PORT ? Number(extraEnv.PORT) : await fanFreePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fanpilot-fan-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [server], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      DATABASE_URL: '',
      REDIS_URL: '',
      S3_ENDPOINT: '',
      S3_ACCESS_KEY_ID: '',
      GOOGLE_CLIENT_ID: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the api exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the api did not start in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Cookies by name, as a browser would keep them for one origin (enough for the sign-in redirects). */
class FanCookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** Signs in through /auth/google, following each redirect by hand; the embedded provider approves at once. */
export async function signInFanTestCreator(api: FanTestApi): Promise<string> {
  const jars = new Map<string, FanCookieJar>();
  const jarFor = (url: string) => {
    const origin = new URL(url).origin;
    let jar = jars.get(origin);
    if (!jar) {
      jar = new FanCookieJar();
      jars.set(origin, jar);
    }
    return jar;
  };
  let next = `${api.url}/auth/google`;
  for (let hop = 0; hop < 10; hop++) {
    const jar = jarFor(next);
    const response = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) break;
    next = new URL(location, next).href;
    if (new URL(next).origin === api.url && !new URL(next).pathname.startsWith('/auth/')) break;
  }
  const cookie = jarFor(api.url).header();
  if (!cookie.includes('fp_session=')) throw new Error(`sign-in gave no session; ended at ${next}`);
  return cookie;
}

/** A real PNG of one colour, drawn here so the tests need no fixture files. */
export const fanTestPng = (size = 64, rgb: [number, number, number] = [236, 72, 153]): Buffer =>
  drawPng(size, size, () => rgb);

export interface FanTestCreator {
  username: string;
  name: string;
  profileImageUrl: string | null;
  /** The chatbot's name: the brand the fan app shows (its header, the installed app's name). */
  chatbotName: string;
  cookie: string;
}

/** Signs a creator in and completes onboarding with an uploaded profile photo, all through the api. */
export async function onboardFanTestCreator(
  api: FanTestApi,
  chatbotName = 'Fan test bot',
): Promise<FanTestCreator> {
  const cookie = await signInFanTestCreator(api);
  const upload = await fetch(`${api.url}/api/objects/upload`, { method: 'POST', headers: { cookie } });
  if (!upload.ok) throw new Error(`upload URL: ${upload.status} ${await upload.text()}`);
  const { uploadURL } = (await upload.json()) as { uploadURL: string };
  const put = await fetch(uploadURL, {
    method: 'PUT',
    body: new Uint8Array(fanTestPng()),
    headers: { 'content-type': 'image/png' },
  });
  if (!put.ok) throw new Error(`PUT of the profile image: ${put.status} ${await put.text()}`);
  const signup = await fetch(`${api.url}/api/creator-signup`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ chatbotName, profileImageUrl: uploadURL.split('?')[0] }),
  });
  if (!signup.ok) throw new Error(`creator-signup: ${signup.status} ${await signup.text()}`);
  const { creator } = (await signup.json()) as {
    creator: { username: string; name: string; profileImageUrl: string | null };
  };
  return { ...creator, chatbotName, cookie };
}

/** The suite's one Chromium launcher. */
export const launchFanChromium = (): Promise<Browser> => launchChromium();

/** CSP violations in any fan phone context (watchCsp): the fan tests expect none. */
export const fanCspViolations: string[] = [];

/** A phone-sized context on the api's origin. Blocking service workers lets page routes stub api calls. */
export async function newFanPhoneContext(
  browser: Browser,
  api: FanTestApi,
  options: { blockServiceWorkers?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: api.url,
    viewport: FAN_PHONE_VIEWPORT,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    timezoneId: 'Europe/Madrid',
    serviceWorkers: options.blockServiceWorkers ? 'block' : 'allow',
  });
  await watchCsp(context, fanCspViolations);
  return context;
}

/** A new fan phone on `username`'s chat, ready to type; its context joins `contexts`, for the test to close. */
export async function openFanChat(
  browser: Browser,
  api: FanTestApi,
  username: string,
  contexts: BrowserContext[],
  options: { blockServiceWorkers?: boolean } = {},
): Promise<Page> {
  const context = await newFanPhoneContext(browser, api, options);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`/pwa/${username}`);
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  return page;
}

export async function saveFanScreenshot(page: Page, name: string) {
  mkdirSync(FAN_RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(FAN_RESULTS_DIR, `fan-${name}.png`) });
}

/** Resolves once the fan app's service worker controls the page; returns its script URL and scope. */
export async function waitForFanServiceWorker(page: Page): Promise<{ scriptURL: string; scope: string }> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, {
    timeout: 30_000,
  });
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return {
      scriptURL: navigator.serviceWorker.controller?.scriptURL ?? '',
      scope: registration.scope,
    };
  });
}

/** The fan id the page keeps in localStorage. */
export function readFanIdFrom(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('fanchat_fan_id'));
}

export interface FanFakeAi {
  /** Base URL to give the api as OPENAI_BASE_URL. */
  baseUrl: string;
  answer: string;
  requests: () => number;
  stop: () => Promise<void>;
}

/**
 * A loopback server speaking the OpenAI HTTP API (chat completions, streamed or not, and
 * embeddings), so the api's AI answers are real calls with a known reply.
 */
export async function startFanFakeAi(answer = 'Here is what the AI coach says.'): Promise<FanFakeAi> {
  const { createServer: createHttpServer } = await import('node:http');
  let requests = 0;
  const server = createHttpServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += String(chunk);
    });
    req.on('end', () => {
      requests++;
      let body: { stream?: boolean; model?: string; input?: unknown } = {};
      try {
        body = JSON.parse(raw || '{}');
      } catch {
        body = {};
      }
      const model = body.model ?? 'gpt-4o-mini';
      if (req.url?.endsWith('/embeddings')) {
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            model,
            data: inputs.map((_, index) => ({
              object: 'embedding',
              index,
              embedding: Array(1536).fill(0.001),
            })),
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
        );
        return;
      }
      if (!req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'not here' } }));
        return;
      }
      const created = Math.floor(Date.now() / 1000);
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const base = { id: 'chatcmpl-fan', object: 'chat.completion.chunk', created, model };
        res.write(
          `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: answer }, finish_reason: null }] })}\n\n`,
        );
        res.write(
          `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
        );
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-fan',
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    answer,
    requests: () => requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One api call with the creator's session cookie; its JSON body (null when empty); throws on a non-2xx answer. */
export async function creatorCall(
  api: FanTestApi,
  creator: FanTestCreator,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      cookie: creator.cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return text ? (JSON.parse(text) as unknown) : null;
}

/** The creator's side of the conversation, through the api as the dashboard calls it. */
export function fanTestCreatorApi(api: FanTestApi, creator: FanTestCreator) {
  const call = (method: string, path: string, body?: unknown) =>
    creatorCall(api, creator, method, path, body);
  const u = encodeURIComponent(creator.username);
  return {
    async messages(): Promise<{ id: string; from: string; message: string; status?: string | null }[]> {
      const body = (await call('GET', `/api/chatlog?creator=${u}`)) as
        | { messages: { id: string; from: string; message: string }[] }
        | { id: string; from: string; message: string }[];
      return Array.isArray(body) ? body : body.messages;
    },
    async status(): Promise<{ isOnline: boolean }> {
      return (await call('GET', `/api/creators/username/${u}/status`)) as { isOnline: boolean };
    },
    async setOnline(online: boolean) {
      if ((await this.status()).isOnline !== online)
        await call('POST', '/api/toggle-status', { creator: creator.username });
    },
    answer: (messageId: string, response: string) =>
      call('POST', '/api/answer', { creator: creator.username, messageId, response }),
    setNotice: (message: string) => call('POST', `/api/creators/username/${u}/set-notice`, { message }),
  };
}
