import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestApp } from './helpers.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const built = fileURLToPath(new URL('../../worker/dist/main.js', import.meta.url));
const source = fileURLToPath(new URL('../../worker/src/main.ts', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  healthPort: number;
  /** Everything it printed. */
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * Runs apps/worker as its own process (the built bundle, or its source through tsx when it
 * has not been built), against the test app's database, Redis prefix and S3.
 */
export async function startWorker(
  t: TestApp,
  prefix: string,
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const args = existsSync(built) ? [built] : ['--conditions=@fanpilot/source', '--import', 'tsx', source];
  let out = '';
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: t.databaseUrl ?? '',
      REDIS_URL: process.env.TEST_REDIS_URL ?? '',
      JOBS_PREFIX: prefix,
      JOBS_BACKOFF_MS: '200',
      S3_ENDPOINT: t.s3.endpoint,
      S3_BUCKET: t.s3.bucket,
      S3_ACCESS_KEY_ID: t.s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: t.s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      WORKER_HEALTH_PORT: '0',
      WORKER_HEALTH_HOST: '127.0.0.1',
      WORKER_CONCURRENCY: '2',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const healthPort = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${out}`)), 30_000);
    const check = () => {
      const line = out
        .split('\n')
        .find((l) => l.includes('"worker ready: ingesting knowledge and answering fans"'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { healthPort: number }).healthPort);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => reject(new Error(`worker exited (${code}):\n${out}`)));
  });
  return {
    child,
    healthPort,
    output: () => out,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
