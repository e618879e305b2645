// The repo root's .env, read by `pnpm start` and `pnpm dev` (scripts/start.mjs, scripts/dev.mjs).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Reads `<root>/.env` into `env` (process.env by default). A variable the environment already has
 * wins over the file; an empty value in the file means unset (as .env.example says) and is skipped.
 * Answers what it did, by names only.
 */
export function loadDotEnv(root, env = process.env) {
  const file = path.join(root, '.env');
  if (!existsSync(file)) return { file, found: false, loaded: [], overridden: [] };
  const values = parseEnv(readFileSync(file, 'utf8'));
  const loaded = [];
  const overridden = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === '') continue;
    if (env[name] !== undefined) {
      overridden.push(name);
      continue;
    }
    env[name] = value;
    loaded.push(name);
  }
  return { file, found: true, loaded: loaded.sort(), overridden: overridden.sort() };
}

/** The start-up line about .env: whether it was read and which keys it set (names, never values). */
export function dotEnvLine({ file, found, loaded, overridden }) {
  if (!found) return `.env: none at ${file} (the environment and the embedded defaults only)`;
  const set = loaded.length > 0 ? loaded.join(', ') : 'nothing';
  const won = overridden.length > 0 ? `; the environment's own ${overridden.join(', ')} won over it` : '';
  return `.env: read ${file}, set ${set}${won}`;
}
