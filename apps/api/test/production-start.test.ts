import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalOidc, startLocalOidc } from '../src/embedded.ts';

// `node apps/api/src/server.ts` as `pnpm start` runs it (the source, through tsx, so the test sees
// this checkout's code), with exactly the environment given.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const server = fileURLToPath(new URL('../src/server.ts', import.meta.url));
/** Prints `stand-in loaded: <name>` for each dev-only stand-in the process loads. */
const reportStandIns = fileURLToPath(new URL('./support/report-stand-ins.mjs', import.meta.url));

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Started {
  let out = '';
  const args = ['--conditions=@fanpilot/source', '--import', reportStandIns, '--import', 'tsx', server];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fanpilot-prod-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a production start', () => {
  it('without Google credentials exits non-zero, naming GOOGLE_CLIENT_ID, before anything starts', async () => {
    const dir = dataDir();
    const proc = startServer({
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-production-secret-0123456789',
      PORT: '0',
      DATA_DIR: dir,
    });
    const code = await proc.exited;
    expect(code).not.toBe(0);
    expect(proc.output()).toContain(
      'GOOGLE_CLIENT_ID: required when NODE_ENV=production (the local sign-in stand-in never runs in production)',
    );
    expect(proc.output()).not.toContain('Fanpilot is running');
    // Refused before the embedded parts start: nothing was written under DATA_DIR.
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  describe('with Google credentials and nothing else', () => {
    let oidc: LocalOidc;
    let proc: Started;
    let running: Record<string, unknown>;
    beforeAll(async () => {
      // The loopback provider plays Google (the api discovers its endpoints at start-up).
      oidc = await startLocalOidc();
      proc = startServer({
        NODE_ENV: 'production',
        SESSION_SECRET: 'a-production-secret-0123456789',
        GOOGLE_CLIENT_ID: 'prod-test-client',
        GOOGLE_CLIENT_SECRET: 'prod-test-secret',
        OAUTH_ISSUER: oidc.issuer,
        PORT: '0',
        DATA_DIR: dataDir(),
        LOG_LEVEL: 'info',
      });
      running = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up line:\n${proc.output()}`)), 60_000);
        void proc.exited.then((code) => reject(new Error(`exited with ${code}:\n${proc.output()}`)));
        const check = () => {
          const line = proc
            .output()
            .split('\n')
            .find((l) => l.includes('"Fanpilot is running"'));
          if (line) {
            clearTimeout(timer);
            resolve(JSON.parse(line) as Record<string, unknown>);
          }
        };
        proc.child.stdout?.on('data', check);
      });
    }, 90_000);
    afterAll(async () => {
      if (proc?.child.exitCode === null) {
        proc.child.kill('SIGTERM');
        await proc.exited;
      }
      await oidc?.stop();
    });

    it('names every embedded part in use in its start-up log', () => {
      const setup = running.setup as string[];
      expect(setup).toEqual([
        expect.stringMatching(/^database: PGlite \(embedded\) at .+pglite$/),
        expect.stringMatching(
          /^objects: embedded S3 store \(s3rver\) on loopback at http:\/\/127\.0\.0\.1:\d+/,
        ),
        'jobs: in-process (no REDIS_URL)',
        `sign-in: OpenID provider ${oidc.issuer}`,
        'payments: off: buying credits is switched off (no STRIPE_SECRET_KEY)',
        'email: off: no SMTP_URL (restoring a subscription by email is off)',
        expect.stringMatching(/^push keys: VAPID keys generated and kept under /),
        'session secret: SESSION_SECRET',
        // What answers fans and what embeds their questions (issue 36, item 8).
        expect.stringMatching(/^answerer: quotes only: the embedded honest answerer/),
        expect.stringMatching(/^embeddings: local sentence encoder/),
      ]);
      expect(running.embedded).toEqual([
        'database',
        'objects',
        'jobs',
        'push keys',
        'answerer',
        'embeddings',
      ]);
    });

    it('loads none of the dev-only stand-ins (the local Stripe, the local sign-in)', async () => {
      // The report can see a stand-in load (a check that it can fail).
      const control = spawnSync(
        process.execPath,
        ['--import', reportStandIns, '--input-type=module', '-e', "await import('oauth2-mock-server')"],
        { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' },
      );
      expect(control.stderr).toContain('stand-in loaded: oauth2-mock-server');
      // Started and answering, after every module the start-up loads.
      const port = Number(String(running.listen).split(':')[1]);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(proc.output()).not.toContain('stand-in loaded');
      // A fan subscription's webhook has no stand-in's secret to be signed with: Stripe is off.
      const webhook = await fetch(`http://127.0.0.1:${port}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
        body: '{}',
      });
      expect(webhook.status).toBe(404);
    });

    it('listens on 127.0.0.1 when HOST is unset', async () => {
      const listen = String(running.listen);
      expect(listen).toMatch(/^127\.0\.0\.1:\d+$/);
      const port = Number(listen.split(':')[1]);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      // Another address of this machine (if it has one) gets no answer on that port.
      const other = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
      if (other) {
        const refused = await new Promise<string>((resolve) => {
          const socket = connect({ host: other, port });
          socket.once('connect', () => {
            socket.destroy();
            resolve('connected');
          });
          socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
        });
        expect(refused).toBe('ECONNREFUSED');
      }
    });

    it('signs in through the configured provider, never the local stand-in', async () => {
      const port = Number(String(running.listen).split(':')[1]);
      const start = await fetch(`http://127.0.0.1:${port}/auth/google`, { redirect: 'manual' });
      const location = new URL(start.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`.startsWith(oidc.issuer)).toBe(true);
      expect(location.searchParams.get('client_id')).toBe('prod-test-client');
      expect((await fetch(`http://127.0.0.1:${port}/billing/test-checkout/x`)).status).toBe(404);
    });
  });
});
