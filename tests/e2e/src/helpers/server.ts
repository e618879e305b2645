import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export interface RunningApi {
  /** http://localhost:PORT, the api's default public origin: sign-in cookies and callbacks use it. */
  origin: string;
  /** What the process printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

/** A free TCP port on loopback. */
export const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

async function waitForHealthy(origin: string, child: ChildProcess, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The api exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${origin}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The api did not answer /healthz within ${timeoutMs} ms:\n${output()}`);
}

export interface StartApiOptions {
  /** Extra environment for the api process; `undefined` removes a variable inherited from the test's. */
  env?: Record<string, string | undefined>;
}

/** The test's environment with `overrides` applied. */
export function apiEnvironment(
  base: NodeJS.ProcessEnv,
  overrides: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv {
  const env = { ...base };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * Starts the built api (apps/api/dist/server.js, serving the built dashboard) on a free port with a
 * fresh data directory: embedded database, object storage and OpenID provider, no configuration.
 */
export async function startApi(options: StartApiOptions = {}): Promise<RunningApi> {
  const server = path.join(repoRoot, 'apps/api/dist/server.js');
  const dashboard = path.join(repoRoot, 'apps/dashboard/dist/index.html');
  for (const built of [server, dashboard]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`pnpm build\` first.`);
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fanpilot-e2e-'));
  const origin = `http://localhost:${port}`;
  let log = '';
  const child = spawn(process.execPath, [server], {
    cwd: repoRoot,
    env: apiEnvironment(process.env, {
      LOG_LEVEL: 'warn',
      ...options.env,
      PORT: String(port),
      DATA_DIR: dataDir,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const output = () => log;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(forced);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealthy(origin, child, output, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, output, stop };
}
