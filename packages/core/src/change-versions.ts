import { encodeFenceNotice } from '@fanpilot/contracts';
import { sql } from 'kysely';
import type { Db } from './db.ts';

// The change feed's versions (migration 2026-11-23T11-00_change_feed): written by triggers only,
// read here when a process has not heard them from the feed.

/** The stored versions of these scopes, keyed `scope:id` (a scope never written is missing). */
export async function readChangeVersions(
  db: Db,
  scopes: readonly (readonly [string, string])[],
): Promise<Map<string, string>> {
  if (scopes.length === 0) return new Map();
  const rows = await db
    .selectFrom('change_versions')
    .select(['scope', 'id', 'version'])
    .where((eb) =>
      eb.or(
        scopes.map(([scope, id]) => eb.and([eb('scope', '=', scope as never), eb('id', '=', id as never)])),
      ),
    )
    .execute();
  return new Map(rows.map((r) => [`${r.scope}:${r.id}`, String(r.version)]));
}

/**
 * Sends a fence notice on the change feed's channel (record 0092): the api process that sent it
 * has heard every change committed before, once it hears the token back.
 */
export async function sendChangeFence(db: Db, token: string): Promise<void> {
  await sql`select pg_notify('fp_changes', ${encodeFenceNotice(token)})`.execute(db);
}
