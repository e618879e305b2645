import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './types.ts';

// int8 (bigint ids, counts) as strings in both drivers; pg already does, PGlite is told to.
const INT8_OID = 20;

/**
 * PGlite's buffer cache (PostgreSQL's shared_buffers; PGlite starts with 128MB). A long history's
 * search reads its chunks, their full-text index and their vector index (about 540 MB at 100,000
 * chunks); what the cache misses is copied in from PGlite's file system on every question. 256MB
 * costs PGlite no more memory at start than its own 128MB (measured: the same RSS) and took such a
 * search's p95 from 28.7 to 19.9 ms on disk; 512MB would cost 480 MB more at start (record 0064).
 */
export const PGLITE_SHARED_BUFFERS = '256MB';

/**
 * The embedded database, started on its first query. PGlite and its extensions are loaded then, so a
 * process on PostgreSQL never loads them (issue 39: the api's memory at rest).
 */
async function startPglite(location: string): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }, { vector }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite-pgvector'),
  ]);
  // PGlite's own start-up parameters, which passing any replaces (kept as they are when unknown).
  const startParams = (PGlite as unknown as { defaultStartParams?: string[] }).defaultStartParams;
  return new PGlite(location, {
    extensions: { vector, pg_trgm },
    parsers: { [INT8_OID]: (value: string) => value },
    ...(startParams
      ? { startParams: [...startParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] }
      : {}),
  });
}

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
  /**
   * LISTENs on `channel`: `onMessage` gets each NOTIFY payload, `onState` says when the listening
   * connection is up or lost (notifications sent meanwhile are missed). On PostgreSQL it is a
   * connection of its own, reconnected with backoff; on PGlite, in-process. Returns a stop function.
   */
  listen: (
    channel: string,
    onMessage: (payload: string) => void,
    onState?: (up: boolean) => void,
  ) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

/** A LISTEN connection of its own that comes back after PostgreSQL does. */
async function listenOnPostgres(
  connectionString: string,
  channel: string,
  onMessage: (payload: string) => void,
  onState: (up: boolean) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | null = null;
  let wake: (() => void) | null = null;
  let firstAttempt!: () => void;
  const attempted = new Promise<void>((resolve) => {
    firstAttempt = resolve;
  });
  const loop = async () => {
    let delay = 250;
    while (!stopped) {
      const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000, keepAlive: true });
      current = client;
      const lost = new Promise<void>((resolve) => {
        client.once('error', () => resolve());
        client.once('end', () => resolve());
      });
      try {
        await client.connect();
        client.on('notification', (n) => {
          if (n.channel === channel) onMessage(n.payload ?? '');
        });
        await client.query(`listen ${channel}`);
        delay = 250;
        onState(true);
        firstAttempt();
        await lost;
      } catch {
        // Refused or dropped: try again below.
      }
      firstAttempt();
      if (stopped) break;
      onState(false);
      client.end().catch(() => {});
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, delay).unref();
      });
      delay = Math.min(delay * 2, 5_000);
    }
  };
  void loop();
  await attempted;
  return async () => {
    stopped = true;
    wake?.();
    await current?.end().catch(() => {});
  };
}

export function createDb(options: DbOptions): DbHandle {
  let db: Kysely<Database>;
  let kind: DbHandle['kind'];
  let pglite: (() => Promise<PGlite>) | null = null;
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
    let started: Promise<PGlite> | null = null;
    pglite = () => {
      started ??= startPglite(location);
      return started;
    };
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
    async listen(channel, onMessage, onState = () => {}) {
      if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
      if (pglite) {
        const stop = await (await pglite()).listen(channel, onMessage);
        onState(true);
        return () => stop();
      }
      return listenOnPostgres(options.databaseUrl!, channel, onMessage, onState);
    },
    close: () => db.destroy(),
  };
}
