import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../../apps/api/src/env.ts';
import { INTERFACE_VARIABLES, parseDotenv, readRepoFile, repoPath } from './repo.ts';

const text = readRepoFile('.env.example');
const lines = text.split('\n');
const vars = parseDotenv(text);

describe('.env.example', () => {
  it.each(INTERFACE_VARIABLES)('lists %s once, with a comment just above it', (name) => {
    const at = lines.flatMap((line, i) => (line.startsWith(`${name}=`) ? [i] : []));
    expect(at, `${name}= should appear exactly once`).toHaveLength(1);
    const above = lines[at[0]! - 1] ?? '';
    expect(above.startsWith('#'), `the line above ${name}= should be a comment explaining it`).toBe(true);
  });

  it('has the docker compose defaults', () => {
    expect(vars.get('DATABASE_URL')).toBe('postgres://fanpilot:fanpilot@postgres:5432/fanpilot');
    expect(vars.get('REDIS_URL')).toBe('redis://redis:6379');
    expect(vars.get('S3_ENDPOINT')).toBe('http://minio:9000');
    expect(vars.get('S3_PUBLIC_ENDPOINT')).toBe('http://localhost:9000');
    expect(vars.get('S3_FORCE_PATH_STYLE')).toBe('true');
    expect(vars.get('PUBLIC_ORIGIN')).toBe('http://localhost:3000');
  });

  it('agrees with itself: database credentials, published ports', () => {
    const db = new URL(vars.get('DATABASE_URL')!);
    expect(decodeURIComponent(db.username)).toBe(vars.get('POSTGRES_USER'));
    expect(decodeURIComponent(db.password)).toBe(vars.get('POSTGRES_PASSWORD'));
    expect(db.pathname.slice(1)).toBe(vars.get('POSTGRES_DB'));
    expect(new URL(vars.get('PUBLIC_ORIGIN')!).port || '80').toBe(vars.get('PORT'));
    expect(new URL(vars.get('S3_PUBLIC_ENDPOINT')!).port || '80').toBe(vars.get('MINIO_PORT'));
    expect(vars.get('S3_SECRET_ACCESS_KEY')!.length).toBeGreaterThanOrEqual(8);
    expect(vars.get('MINIO_ROOT_PASSWORD')!.length).toBeGreaterThanOrEqual(8);
  });

  it("is accepted by the api's own environment schema once sign-in is filled in", () => {
    // NODE_ENV=production: the local sign-in stand-in never runs, so the example's empty Google
    // client is refused, naming it, until the operator fills it in.
    expect(vars.get('GOOGLE_CLIENT_ID')).toBe('');
    expect(() => loadEnv(Object.fromEntries(vars))).toThrow(
      /GOOGLE_CLIENT_ID: required when NODE_ENV=production/,
    );
    const env = loadEnv({
      ...Object.fromEntries(vars),
      GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'client-secret',
    });
    expect(env.NODE_ENV).toBe('production');
    expect(env.DATABASE_URL).toBe(vars.get('DATABASE_URL'));
    expect(env.S3_FORCE_PATH_STYLE).toBe(true);
  });

  it('lists every variable an app reads in its env.ts', () => {
    const missing: string[] = [];
    for (const app of readdirSync(repoPath('apps'))) {
      let source: string;
      try {
        source = readRepoFile('apps', app, 'src', 'env.ts');
      } catch {
        continue;
      }
      // Keys of the zod object: `  NAME: z…` or `  NAME: someSchema,` at the first indentation level.
      for (const match of source.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)) {
        if (!vars.has(match[1]!)) missing.push(`${match[1]} (apps/${app}/src/env.ts)`);
      }
    }
    expect(missing, 'add these to .env.example, with a comment').toEqual([]);
  });
});
