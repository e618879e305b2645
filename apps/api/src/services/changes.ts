import { randomBytes } from 'node:crypto';
import { type ChangeNotice, type ChangeScope, type DraftNotice, decodeFeedNotice } from '@fanpilot/contracts';
import { readChangeVersions, sendChangeFence } from '@fanpilot/core';
import type { Database, DbHandle } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import type { LRUCache } from 'lru-cache';
import { boundedCache } from './bounded-cache.ts';

/**
 * The change feed as an api process sees it. The database announces every committed write
 * (NOTIFY fp_changes, migration 2026-11-23T11-00_change_feed) with the new version of its scope;
 * this keeps those versions in memory, so an unchanged poll is answered with 304 without a query,
 * and hands each change to the open event streams. Versions live in the database, so every api
 * process computes the same validators. While the listening connection is down, nothing is
 * cached: versions are read from the database, and caches built on the feed are emptied.
 */

/** A committed write as the feed announces it (packages/contracts' change notice). */
export type Change = ChangeNotice;
export type { ChangeScope };

/** An AI answer as it is being written (packages/answers' drafts.ts sends it). */
export type Draft = DraftNotice;

export interface ChangeFeedOptions {
  /** Versions kept in memory (least recently used dropped first). */
  maxVersions?: number;
  /** How long `caughtUp` waits for its fence before it gives up (the write's answer is not held longer). */
  fenceTimeoutMs?: number;
  log?: { warn: (o: object, m: string) => void; info: (o: object, m: string) => void };
}

export class ChangeFeed {
  /**
   * Heard versions, by scope and then id: a poll looks its scopes up by ids it already holds (their
   * hashes are kept with the strings), never by a key made for the lookup (record 0095).
   */
  private readonly versions = new Map<ChangeScope, LRUCache<string, string>>();
  private readonly listeners = new Set<(change: Change) => void>();
  private readonly resetListeners = new Set<() => void>();
  private readonly draftListeners = new Set<(draft: Draft) => void>();
  private live = false;
  /** Bumped whenever the feed is lost or regained: a read begun before is not cached after. */
  private epoch = 0;
  private stop: (() => Promise<void>) | null = null;
  /** This process's fences: sent, not yet heard back, by token. */
  private readonly fences = new Map<string, () => void>();
  /** Callers waiting for the next fence, which is not sent yet (one fence serves a tick's writes). */
  private nextFence: (() => void)[] | null = null;
  private readonly fencePrefix = `${process.pid}-${randomBytes(4).toString('hex')}.`;
  private fenceCount = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly handle: Pick<DbHandle, 'listen'>,
    private readonly options: ChangeFeedOptions = {},
  ) {}

  private scopeVersions(scope: ChangeScope): LRUCache<string, string> {
    let versions = this.versions.get(scope);
    if (!versions) {
      versions = boundedCache(this.options.maxVersions ?? 200_000);
      this.versions.set(scope, versions);
    }
    return versions;
  }

  /** Changes whenever the feed is lost or regained; a cache fills an entry read under the same epoch. */
  get currentEpoch(): number {
    return this.epoch;
  }

  /** Whether the feed is being heard (versions and caches built on it can be trusted). */
  get isLive(): boolean {
    return this.live;
  }

  async start(): Promise<void> {
    this.stop = await this.handle.listen(
      'fp_changes',
      (payload) => this.receive(payload),
      (up) => this.setLive(up),
    );
  }

  async close(): Promise<void> {
    this.live = false;
    this.releaseFences();
    await this.stop?.();
    this.stop = null;
  }

  /**
   * Resolves once this process has heard every change committed before the call: the answer to a
   * write waits for it, so the writer's next read (a list refetched after a delete) is never
   * answered from the versions heard before its own write. A fence notice goes round the database
   * (NOTIFY delivers in commit order); writes answered in the same tick share one. While the feed
   * is not heard nothing is kept from it, so there is nothing to wait for; after `fenceTimeoutMs`
   * (a stalled listening connection) the wait gives up rather than hold the answer.
   */
  caughtUp(): Promise<void> {
    if (!this.live) return Promise.resolve();
    return new Promise<void>((resolve) => {
      if (this.nextFence) {
        this.nextFence.push(resolve);
        return;
      }
      this.nextFence = [resolve];
      setImmediate(() => this.sendFence());
    });
  }

  private sendFence() {
    const waiters = this.nextFence ?? [];
    this.nextFence = null;
    if (!this.live || waiters.length === 0) {
      for (const resolve of waiters) resolve();
      return;
    }
    const token = `${this.fencePrefix}${++this.fenceCount}`;
    const heard = () => {
      clearTimeout(timer);
      this.fences.delete(token);
      for (const resolve of waiters) resolve();
    };
    const timer = setTimeout(() => {
      this.options.log?.warn({ token }, 'change feed fence not heard back in time');
      heard();
    }, this.options.fenceTimeoutMs ?? 2_000);
    this.fences.set(token, heard);
    sendChangeFence(this.db, token).catch((err: Error) => {
      this.options.log?.warn({ err: err.message }, 'change feed fence not sent');
      heard();
    });
  }

  /** Lets every waiting fence go (the feed lost, regained or closed: nothing heard before is kept). */
  private releaseFences() {
    for (const heard of [...this.fences.values()]) heard();
    const waiting = this.nextFence;
    this.nextFence = null;
    for (const resolve of waiting ?? []) resolve();
  }

  private setLive(up: boolean) {
    if (up === this.live) return;
    // Announcements sent while nobody listened are lost: forget everything built on them, both
    // when the connection goes and when it comes back.
    for (const versions of this.versions.values()) versions.clear();
    this.live = up;
    this.epoch++;
    this.releaseFences();
    for (const reset of this.resetListeners) reset();
    if (up) this.options.log?.info({}, 'change feed listening');
    else this.options.log?.warn({}, 'change feed lost; validators read from the database until it is back');
  }

  private receive(payload: string) {
    const notice = decodeFeedNotice(payload);
    if (!notice) return;
    if (notice.type === 'fence') {
      // Another process's fences are theirs.
      this.fences.get(notice.token)?.();
      return;
    }
    if (notice.type === 'draft') {
      for (const listener of this.draftListeners) listener(notice.draft);
      return;
    }
    const { change } = notice;
    if (this.live) this.scopeVersions(change.scope).set(change.id, change.version);
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // One listener's failure is its own.
      }
    }
  }

  /** Every change from now on; returns the unsubscribe function. */
  subscribe(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every answer draft from now on; returns the unsubscribe function. */
  onDraft(listener: (draft: Draft) => void): () => void {
    this.draftListeners.add(listener);
    return () => this.draftListeners.delete(listener);
  }

  /** Called whenever what was heard before can no longer be trusted (the feed lost or regained). */
  onReset(listener: () => void): () => void {
    this.resetListeners.add(listener);
    return () => this.resetListeners.delete(listener);
  }

  /** The versions of these scopes from memory (the feed heard), or undefined when one is not known. */
  knownVersions(scopes: readonly (readonly [ChangeScope, string])[]): string[] | undefined {
    if (!this.live) return undefined;
    const out: string[] = [];
    for (const [scope, id] of scopes) {
      const version = this.versions.get(scope)?.get(id);
      if (version === undefined) return undefined;
      out.push(version);
    }
    return out;
  }

  /** The current versions of these scopes ('0' for a scope never written). */
  async versionsOf(scopes: readonly (readonly [ChangeScope, string])[]): Promise<string[]> {
    const out: (string | undefined)[] = scopes.map(([scope, id]) =>
      this.live ? this.versions.get(scope)?.get(id) : undefined,
    );
    const missing = scopes.filter((_, i) => out[i] === undefined);
    if (missing.length === 0) return out as string[];
    const epoch = this.epoch;
    const read = await readChangeVersions(this.db, missing);
    return scopes.map(([scope, id], i) => {
      const known = out[i];
      if (known !== undefined) return known;
      const version = read.get(`${scope}:${id}`) ?? '0';
      // An announcement heard during the read is newer than what the read saw: keep it.
      const versions = this.scopeVersions(scope);
      if (this.live && epoch === this.epoch && !versions.has(id)) versions.set(id, version);
      return versions.get(id) ?? version;
    });
  }
}
