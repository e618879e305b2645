import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './types.ts';

// int8 (bigint ids, counts) as strings in both drivers; pg already does, PGlite is told to.
const INT8_OID = 20;

export interface DbOptions {
  /** postgres://… ; unset means embedded PGlite under dataDir. */
  databaseUrl?: string | undefined;
  /** Folder for PGlite's files; 'memory://' keeps it in memory (tests). */
  dataDir?: string;
  /** pg pool size. */
  poolSize?: number;
}

export interface DbHandle {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  hasVector: () => Promise<boolean>;
  close: () => Promise<void>;
}

export function createDb(options: DbOptions): DbHandle {
  let db: Kysely<Database>;
  let kind: DbHandle['kind'];
  if (options.databaseUrl) {
    kind = 'postgres';
    // A database that does not answer fails a request within 5 s (503) rather than holding it.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
    });
    // An idle client's error (server restart) must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    // A client whose connection drops while checked out (between two queries of a transaction)
    // emits 'error' with nobody listening, which would end the process; its next query fails
    // instead, the request answers 503, and the pool drops the client on release.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    kind = 'pglite';
    const dataDir = options.dataDir ?? '.data';
    let location = 'memory://';
    if (dataDir !== 'memory://') {
      location = path.resolve(dataDir, 'pglite');
      mkdirSync(location, { recursive: true });
    }
    const pglite = new PGlite(location, {
      extensions: { vector },
      parsers: { [INT8_OID]: (value: string) => value },
    });
    db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  }
  let vectorKnown: boolean | undefined;
  return {
    db,
    kind,
    async hasVector() {
      if (vectorKnown === undefined) {
        const r = await sql<{ n: number }>`
          select count(*)::int as n from information_schema.columns
          where table_name = 'chunks' and column_name = 'embedding'`.execute(db);
        vectorKnown = (r.rows[0]?.n ?? 0) > 0;
      }
      return vectorKnown;
    },
    close: () => db.destroy(),
  };
}
