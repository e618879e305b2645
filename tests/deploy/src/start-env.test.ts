import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRepoFile, repoPath } from './repo.ts';

// `pnpm start` (scripts/start.mjs) as it is, in a copy of the repo's layout whose "built" api only
// prints what environment it was given: the launcher reads the root's .env, says so by key names,
// and the api it starts sees the file's values under the environment's own.

const roots: string[] = [];
afterAll(() => {
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

/** A repo root with the launcher, a stand-in api that reports its environment, and the other builds. */
function fakeRepo(dotEnv: string | null): string {
  const root = mkdtempSync(path.join(tmpdir(), 'fanpilot-start-'));
  roots.push(root);
  mkdirSync(path.join(root, 'scripts'));
  for (const file of ['start.mjs', 'env-file.mjs']) {
    copyFileSync(repoPath('scripts', file), path.join(root, 'scripts', file));
  }
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write(
    'apps/api/dist/server.js',
    `const seen = (n) => (process.env[n] === undefined ? '(unset)' : process.env[n]);
console.log('api sees ' + ['OPENAI_API_KEY', 'PORT', 'EMBEDDINGS', 'HOST'].map((n) => n + '=' + seen(n)).join(' '));\n`,
  );
  write('apps/dashboard/dist/index.html', '');
  write('apps/fan-pwa/dist/index.html', '');
  // Every workspace package "built", whichever of them the launcher checks for.
  for (const pkg of readdirSync(repoPath('packages'))) write(`packages/${pkg}/dist/index.js`, '');
  if (dotEnv !== null) write('.env', dotEnv);
  return root;
}

function start(root: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('pnpm start reads .env', () => {
  it("reads the root's .env, names the keys it set (never their values), and the environment wins over it", async () => {
    const root = fakeRepo(
      [
        '# copied from .env.example and edited',
        'OPENAI_API_KEY=sk-from-dotenv-123',
        'PORT=4000',
        'EMBEDDINGS="local"',
        'HOST=',
        '',
      ].join('\n'),
    );
    const { code, output } = await start(root, { PORT: '5123' });
    expect(code).toBe(0);
    const lines = output.trim().split('\n');
    expect(lines[0]).toBe(
      `.env: read ${path.join(root, '.env')}, set EMBEDDINGS, OPENAI_API_KEY; the environment's own PORT won over it`,
    );
    // The launcher's own words hold no value from the file.
    expect(lines[0]).not.toContain('sk-from-dotenv');
    // The api was started with the file's values, the environment's PORT, and no empty HOST.
    expect(lines).toContain(
      'api sees OPENAI_API_KEY=sk-from-dotenv-123 PORT=5123 EMBEDDINGS=local HOST=(unset)',
    );
  });

  it('says when there is no .env, and starts on the environment alone', async () => {
    const root = fakeRepo(null);
    const { code, output } = await start(root, { OPENAI_API_KEY: 'from-env' });
    expect(code).toBe(0);
    expect(output.trim().split('\n')).toEqual([
      `.env: none at ${path.join(root, '.env')} (the environment and the embedded defaults only)`,
      'api sees OPENAI_API_KEY=from-env PORT=(unset) EMBEDDINGS=(unset) HOST=(unset)',
    ]);
  });

  it('pnpm dev reads it the same way, before it starts anything', () => {
    const dev = readRepoFile('scripts/dev.mjs');
    expect(dev).toContain("import { dotEnvLine, loadDotEnv } from './env-file.mjs';");
    expect(dev.indexOf('console.log(dotEnvLine(loadDotEnv(root)));')).toBeGreaterThan(-1);
    expect(dev.indexOf('console.log(dotEnvLine(loadDotEnv(root)));')).toBeLessThan(dev.indexOf('spawn('));
  });
});
