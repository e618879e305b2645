#!/usr/bin/env node
// `pnpm dev`: everything on embedded defaults, on one origin, reloading on change.
// The web apps rebuild on save (vite build --watch); the api restarts on save (tsx watch) and serves them.
// The repo root's .env is read first; a variable set in the environment wins over it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dotEnvLine, loadDotEnv } from './env-file.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The repo root's .env, under whatever the environment sets itself.
console.log(dotEnvLine(loadDotEnv(root)));
const children = [];
const run = (name, args) => {
  const child = spawn('pnpm', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const prefix = (line) => `[${name}] ${line}`;
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines)
        (stream === child.stderr ? process.stderr : process.stdout).write(`${prefix(line)}\n`);
    });
  }
  child.on('exit', (code) => {
    if (code && code !== 0) console.error(prefix(`exited with ${code}`));
  });
  children.push(child);
};

// The web apps rebuild on save into the dist/ folders the api serves.
for (const app of ['dashboard', 'fan-pwa']) {
  run(app, ['--filter', `@fanpilot/${app}`, 'exec', 'vite', 'build', '--watch', '--mode', 'development']);
}
run('api', ['--filter', '@fanpilot/api', 'dev']);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(0);
  });
}
