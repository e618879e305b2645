import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests/deploy/src/ is three levels down). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const repoPath = (...parts: string[]) => path.join(ROOT, ...parts);

export const readRepoFile = (...parts: string[]) => readFileSync(repoPath(...parts), 'utf8');

/** This package's node_modules/.bin, where dclint is installed. */
export const BIN_DIR = fileURLToPath(new URL('../node_modules/.bin/', import.meta.url));

/**
 * The variables that make up the apps' configuration interface. Every one must be listed, with a
 * comment, in .env.example.
 */
export const INTERFACE_VARIABLES = [
  'PORT',
  'PUBLIC_ORIGIN',
  'SESSION_SECRET',
  'DATA_DIR',
  'DATABASE_URL',
  'REDIS_URL',
  'S3_ENDPOINT',
  'S3_PUBLIC_ENDPOINT',
  'S3_REGION',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'OAUTH_ISSUER',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'GOOGLE_GENAI_API_KEY',
  'DEEPSEEK_API_KEY',
  'INGEST_ALLOWED_PRIVATE_HOSTS',
  'LOG_LEVEL',
  'NODE_ENV',
  'WORKER_CONCURRENCY',
  'WORKER_HEALTH_PORT',
] as const;

/** Absolute path of an executable on PATH, or undefined. */
export function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Set when the command could not be started at all. */
  error?: Error;
}

export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? process.env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const out: RunResult = { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  if (result.error) out.error = result.error;
  return out;
}

/** Parses KEY=value lines of a dotenv file (comments and blank lines skipped). */
export function parseDotenv(text: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match) throw new Error(`not a KEY=value line: ${raw}`);
    vars.set(match[1]!, match[2]!);
  }
  return vars;
}
