import { randomBytes } from 'node:crypto';
import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import pg from 'pg';

/** A fresh, empty PostgreSQL database beside the one `baseUrl` names; drop() removes it. */
export async function createTestDatabase(
  baseUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `fp_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * A migrated database for one test file: a fresh PostgreSQL database beside `baseUrl` when given
 * (real connections, `poolSize` of them), else PGlite in memory. close() ends it and drops it.
 */
export async function openTestDb(
  baseUrl: string | undefined,
  poolSize = 6,
): Promise<{ handle: DbHandle; close: () => Promise<void> }> {
  const fresh = baseUrl ? await createTestDatabase(baseUrl) : undefined;
  const handle = createDb(fresh ? { databaseUrl: fresh.url, poolSize } : { dataDir: 'memory://' });
  await migrateToLatest(handle.db);
  return {
    handle,
    async close() {
      await handle.close();
      await fresh?.drop();
    },
  };
}
