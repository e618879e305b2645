import type { ServerResponse } from 'node:http';
import { encodeLiveEvent, type LiveChangeKind, type LiveDraft, type LiveEvent } from '@fanpilot/contracts';
import {
  type ConversationBinding,
  conversationBindings,
  type Db,
  mayActAsFan,
  type SessionGrant,
  sessionActsFor,
  sessionGrants,
} from '@fanpilot/core';
import type { Change, ChangeFeed } from './changes.ts';

/**
 * Server-Sent Events for the open dashboards and fan chats of this api process. Events say what
 * changed (the client then re-reads it, a 304 when nothing it shows did); each carries the scope
 * versions as its id, so a reconnect (Last-Event-ID) that missed something is told to sync.
 * Changes and answer drafts both come from the change feed's channel (every process hears every
 * commit; the process writing an answer sends its drafts there, packages/answers drafts.ts).
 */

/** What a stream is told: packages/contracts' live protocol. */
export type { LiveEvent };

/** The kind of change a table write is, as a client groups its queries. */
export function kindOf(table: string): LiveChangeKind {
  switch (table) {
    case 'messages':
    case 'fans':
      return 'messages';
    case 'creators':
      return 'status';
    case 'notices':
      return 'notice';
    case 'knowledge_items':
      return 'knowledge';
    case 'credit_totals':
    case 'credit_ledger':
    case 'credit_purchases':
      return 'credits';
    case 'templates':
      return 'templates';
    default:
      return 'settings';
  }
}

/** How often each stream gets a keep-alive comment, and every stream's right is checked again. */
export const HEARTBEAT_MS = 20_000;

export class LiveStream {
  private closed = false;
  private blocked = false;
  private missed = false;

  constructor(
    private readonly res: ServerResponse,
    /** The id sent with each event: the versions this stream follows, as of now. */
    readonly idOf: () => string,
  ) {}

  get isClosed(): boolean {
    return this.closed || this.res.destroyed;
  }

  send(event: LiveEvent): void {
    if (this.isClosed) return;
    // A client that reads slowly gets one 'sync' once it catches up instead of a backlog.
    if (this.blocked) {
      this.missed = true;
      return;
    }
    const ok = this.res.write(encodeLiveEvent(event, this.idOf()));
    if (!ok) {
      this.blocked = true;
      this.res.once('drain', () => {
        this.blocked = false;
        if (this.missed) {
          this.missed = false;
          this.send({ event: 'sync', data: {} });
        }
      });
    }
  }

  comment(text: string): void {
    if (!this.isClosed && !this.blocked) this.res.write(`: ${text}\n\n`);
  }

  close(): void {
    this.closed = true;
  }

  end(): void {
    this.closed = true;
    if (!this.res.destroyed && !this.res.writableEnded) this.res.end();
  }
}

/**
 * What lets a stream go on: a fan chat's browser (the fan cookie it was opened with) still holding
 * the conversation, or a dashboard's session still being valid and its creator's.
 */
export type StreamRight =
  | { kind: 'fan'; fanId: string; cookieHash: string }
  | { kind: 'session'; sessionId: string; creatorId: string };

/** Whether each of these rights still holds, as the database says now. */
export type RightsCheck = (rights: readonly StreamRight[]) => Promise<boolean[]>;

const CHECK_BATCH = 500;

/**
 * Rights read fresh from the database and judged by packages/core's rule (the chat log's rule for
 * a fan, a live session of that creator for a dashboard), a few queries for any number of streams.
 */
export function rightsFromDb(db: Db): RightsCheck {
  return async (rights) => {
    const fanIds = [...new Set(rights.flatMap((r) => (r.kind === 'fan' ? [r.fanId] : [])))];
    const sessionIds = [...new Set(rights.flatMap((r) => (r.kind === 'session' ? [r.sessionId] : [])))];
    const bindings = new Map<string, ConversationBinding>();
    const sessions = new Map<string, SessionGrant>();
    for (let i = 0; i < fanIds.length; i += CHECK_BATCH) {
      for (const [id, row] of await conversationBindings(db, fanIds.slice(i, i + CHECK_BATCH)))
        bindings.set(id, row);
    }
    for (let i = 0; i < sessionIds.length; i += CHECK_BATCH) {
      for (const [id, row] of await sessionGrants(db, sessionIds.slice(i, i + CHECK_BATCH)))
        sessions.set(id, row);
    }
    const now = Date.now();
    return rights.map((r) =>
      r.kind === 'fan'
        ? mayActAsFan({ cookieHash: r.cookieHash, creatorId: null }, bindings.get(r.fanId), 'read')
        : sessionActsFor(sessions.get(r.sessionId), r.creatorId, now),
    );
  };
}

export interface LiveHubOptions {
  /** Judges the rights of open streams (on a change to them, on every heartbeat). */
  check: RightsCheck;
  /** A stream is ended after this long; the browser reconnects and its right is checked anew. */
  maxLifetimeMs: number;
  /** Streams one client address may hold in this process. */
  perAddress: number;
  /** Streams this process holds at most. */
  perProcess: number;
  heartbeatMs?: number;
  log?: { warn: (o: object, m: string) => void };
}

/** Events held for a stream while its right is being checked; past this, it is told to sync. */
const HELD_MAX = 100;

/** A change version (the value of one sequence), or null when it is not one. */
function versionOf(text: string): bigint | null {
  return /^\d{1,19}$/.test(text) ? BigInt(text) : null;
}

/** What a stream started from: its scopes' versions as its start id gave them ('a.b', in order). */
function sinceOf(scopes: readonly (readonly [string, string])[], startId: string): Map<string, bigint> {
  const versions = startId === '' ? [] : startId.split('.');
  const out = new Map<string, bigint>();
  scopes.forEach(([scope, id], i) => {
    const v = versionOf(versions[i] ?? '');
    if (v !== null) out.set(`${scope}:${id}`, v);
  });
  return out;
}

interface Entry {
  stream: LiveStream;
  creatorId: string;
  fanId: string | null;
  address: string;
  right: StreamRight;
  /** Checks of its right under way: events wait until none is (and the right held). */
  checking: number;
  held: LiveEvent[];
  heldOverflow: boolean;
  lifetime: NodeJS.Timeout | null;
  /**
   * The versions (scope:id → version) the stream started from: a change at or below one of them
   * was committed before the stream opened (its NOTIFY merely arrived late, as one from another
   * process can), so what the client read as it opened already holds it.
   */
  since: ReadonlyMap<string, bigint>;
  detached: boolean;
  /** Takes it out of the hub (once). */
  detach: () => void;
}

/** Why a new stream is refused (429): which limit it met. */
export interface StreamRefusal {
  message: string;
}

export class LiveHub {
  /** The creator's dashboards, by creator id. */
  private readonly dashboards = new Map<string, Set<Entry>>();
  /** Fan chats by fan row id, and by their creator's id (for the creator's public face). */
  private readonly fanChats = new Map<string, Set<Entry>>();
  private readonly fansOfCreator = new Map<string, Set<Entry>>();
  /** Dashboards by the session (its id, the token's hash) they were opened with. */
  private readonly bySession = new Map<string, Set<Entry>>();
  /** Streams per client address. */
  private readonly byAddress = new Map<string, number>();
  /** Versions last heard, for stream ids (scope:id → version). */
  private readonly heard = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly unreset: () => void;
  private total = 0;
  /** Streams whose right is to be checked in the next batch. */
  private readonly queued = new Set<Entry>();
  private checkScheduled = false;
  /** Streams ended because their right ended (for logs and tests). */
  revoked = 0;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly options: LiveHubOptions,
  ) {
    const unchange = feed.subscribe((change) => this.onChange(change));
    const undraft = feed.onDraft((d) =>
      this.draft(d.fanId, { replyTo: d.replyTo, text: d.text, done: d.done }),
    );
    this.unsubscribe = () => {
      unchange();
      undraft();
    };
    // Announcements may have been missed while the feed was lost: every stream re-reads, and every
    // right is checked again (a sign-out or a transfer may have gone unheard).
    this.unreset = feed.onReset(() => {
      this.heard.clear();
      const all = this.entries();
      this.recheck(all);
      for (const entry of all) this.deliver(entry, { event: 'sync', data: {} });
    });
    this.timer = setInterval(() => this.heartbeat(), options.heartbeatMs ?? HEARTBEAT_MS);
    this.timer.unref();
  }

  get size(): number {
    return this.total;
  }

  /** Ends every stream (shutting down: the clients reconnect to another process). */
  close(): void {
    clearInterval(this.timer);
    this.queued.clear();
    this.unsubscribe();
    this.unreset();
    for (const entry of this.entries()) this.end(entry);
  }

  /** How many streams this creator's dashboards, or this fan's chats, hold now. */
  count(kind: 'dashboard' | 'fan', id: string): number {
    return (kind === 'dashboard' ? this.dashboards : this.fanChats).get(id)?.size ?? 0;
  }

  /**
   * Whether one more stream may open for this client address (null) or why not: the address's
   * share, or the process's. Asked right before `addDashboard`/`addFanChat`, with nothing awaited
   * in between, so no two requests both take the last place.
   */
  refusal(address: string): StreamRefusal | null {
    if (this.total >= this.options.perProcess) {
      return {
        message: 'This server holds as many live connections as it can. The page keeps updating by itself.',
      };
    }
    if ((this.byAddress.get(address) ?? 0) >= this.options.perAddress) {
      return {
        message: 'Too many live connections from this network. Close some chats or dashboards and reload.',
      };
    }
    return null;
  }

  private entries(): Entry[] {
    const out: Entry[] = [];
    for (const set of this.dashboards.values()) out.push(...set);
    for (const set of this.fanChats.values()) out.push(...set);
    return out;
  }

  /** The versions a new stream starts from (also what Last-Event-ID is compared with). */
  async startId(scopes: readonly (readonly ['c' | 'p' | 'f', string])[]): Promise<string> {
    const versions = await this.feed.versionsOf(scopes);
    scopes.forEach(([scope, id], i) => {
      const key = `${scope}:${id}`;
      if (!this.heard.has(key) || this.entriesFor(scope, id) === 0) this.heard.set(key, versions[i]!);
    });
    return versions.join('.');
  }

  private entriesFor(scope: string, id: string): number {
    if (scope === 'c') return this.dashboards.get(id)?.size ?? 0;
    if (scope === 'f') return this.fanChats.get(id)?.size ?? 0;
    return this.fansOfCreator.get(id)?.size ?? 0;
  }

  idFor(scopes: readonly (readonly [string, string])[]): string {
    return scopes.map(([scope, id]) => this.heard.get(`${scope}:${id}`) ?? '0').join('.');
  }

  /**
   * A dashboard's stream, for as long as `sessionId` is a valid session of `creatorId`. Its right
   * is checked once more as it starts (a sign-out may have landed while it was opening): nothing
   * is sent before that check passes. Returns the detach function.
   */
  addDashboard(
    creatorId: string,
    stream: LiveStream,
    who: { address: string; sessionId: string },
    resync = false,
    startId = '',
  ): () => void {
    const entry = this.entry(
      stream,
      creatorId,
      null,
      who.address,
      { kind: 'session', sessionId: who.sessionId, creatorId },
      sinceOf([['c', creatorId]], startId),
    );
    const undo = [
      this.index(this.dashboards, creatorId, entry, 'c'),
      this.index(this.bySession, who.sessionId, entry),
    ];
    return this.start(entry, undo, resync);
  }

  /** A fan chat's stream, for as long as the browser with `cookieHash` holds the conversation. */
  addFanChat(
    creatorId: string,
    fanId: string,
    stream: LiveStream,
    who: { address: string; cookieHash: string },
    resync = false,
    startId = '',
  ): () => void {
    const entry = this.entry(
      stream,
      creatorId,
      fanId,
      who.address,
      { kind: 'fan', fanId, cookieHash: who.cookieHash },
      sinceOf(
        [
          ['f', fanId],
          ['p', creatorId],
        ],
        startId,
      ),
    );
    const undo = [
      this.index(this.fanChats, fanId, entry, 'f'),
      this.index(this.fansOfCreator, creatorId, entry, 'p'),
    ];
    return this.start(entry, undo, resync);
  }

  private entry(
    stream: LiveStream,
    creatorId: string,
    fanId: string | null,
    address: string,
    right: StreamRight,
    since: ReadonlyMap<string, bigint>,
  ): Entry {
    return {
      since,
      stream,
      creatorId,
      fanId,
      address,
      right,
      checking: 0,
      held: [],
      heldOverflow: false,
      lifetime: null,
      detached: false,
      detach: () => {},
    };
  }

  private start(entry: Entry, undo: (() => void)[], resync: boolean): () => void {
    this.total++;
    this.byAddress.set(entry.address, (this.byAddress.get(entry.address) ?? 0) + 1);
    entry.detach = () => {
      if (entry.detached) return;
      entry.detached = true;
      entry.stream.close();
      if (entry.lifetime) clearTimeout(entry.lifetime);
      for (const fn of undo) fn();
      this.total--;
      const n = (this.byAddress.get(entry.address) ?? 1) - 1;
      if (n > 0) this.byAddress.set(entry.address, n);
      else this.byAddress.delete(entry.address);
    };
    // Lifetime: the browser reconnects (EventSource, 3 s) and its right is checked anew.
    entry.lifetime = setTimeout(() => this.end(entry), this.options.maxLifetimeMs);
    entry.lifetime.unref();
    this.recheck([entry]);
    if (resync) this.deliver(entry, { event: 'sync', data: {} });
    return entry.detach;
  }

  private end(entry: Entry): void {
    entry.stream.end();
    entry.detach();
  }

  /** An answer being written to this fan (a draft notice from the change feed). */
  draft(fanId: string, data: LiveDraft): void {
    for (const entry of [...(this.fanChats.get(fanId) ?? [])]) this.deliver(entry, { event: 'draft', data });
  }

  /** Sends now, or holds the event while the stream's right is being checked. */
  private deliver(entry: Entry, event: LiveEvent): void {
    if (entry.detached) return;
    if (entry.checking === 0) {
      entry.stream.send(event);
      return;
    }
    if (entry.held.length < HELD_MAX) entry.held.push(event);
    else entry.heldOverflow = true;
  }

  /**
   * Checks these streams' rights again: from now until the answer, nothing is sent to them (so a
   * draft never reaches a browser that lost the conversation a moment ago); those whose right is
   * gone are ended, the others get what was held. A check that cannot be made (the database is
   * away) ends them too: the browser reconnects, and its right is checked as it does.
   */
  private recheck(entries: Entry[]): void {
    for (const e of entries) {
      if (e.detached || this.queued.has(e)) continue;
      e.checking++;
      this.queued.add(e);
    }
    // Checks asked for in the same turn (a burst of streams opening, a heartbeat) go together.
    if (this.queued.size > 0 && !this.checkScheduled) {
      this.checkScheduled = true;
      setImmediate(() => this.runChecks());
    }
  }

  private runChecks(): void {
    this.checkScheduled = false;
    const live = [...this.queued].filter((e) => !e.detached);
    this.queued.clear();
    if (live.length === 0) return;
    const settle = (results: boolean[]) => {
      live.forEach((e, i) => {
        e.checking--;
        if (e.detached) return;
        if (!results[i]) {
          this.revoked++;
          e.held = [];
          this.end(e);
          return;
        }
        if (e.checking > 0) return;
        const held = e.held;
        e.held = [];
        if (e.heldOverflow) {
          e.heldOverflow = false;
          e.stream.send({ event: 'sync', data: {} });
        } else for (const event of held) e.stream.send(event);
      });
    };
    this.options.check(live.map((e) => e.right)).then(settle, (err: unknown) => {
      this.options.log?.warn(
        { reason: err instanceof Error ? err.message : String(err), streams: live.length },
        'stream rights could not be checked; those streams are ended',
      );
      settle(live.map(() => false));
    });
  }

  private index(
    map: Map<string, Set<Entry>>,
    key: string,
    entry: Entry,
    scope?: 'c' | 'f' | 'p',
  ): () => void {
    let set = map.get(key);
    if (!set) {
      set = new Set();
      map.set(key, set);
    }
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0 && map.get(key) === set) {
        map.delete(key);
        // Versions are kept only for scopes someone follows.
        if (scope) this.heard.delete(`${scope}:${key}`);
      }
    };
  }

  private onChange(change: Change): void {
    // A change to what grants a right: those streams hold everything (this change too) until
    // their right is checked again. A fan row changes when its browser does (a transfer) and
    // when the creator deletes the conversation; a session row when it is signed out.
    if (change.scope === 'f' && change.table === 'fans')
      this.recheck([...(this.fanChats.get(change.id) ?? [])]);
    if (change.scope === 's') this.recheck([...(this.bySession.get(change.id) ?? [])]);

    if (this.entriesFor(change.scope, change.id) > 0) {
      this.heard.set(`${change.scope}:${change.id}`, change.version);
    }
    const kind = kindOf(change.table);
    const key = `${change.scope}:${change.id}`;
    const version = versionOf(change.version);
    const fresh = (entry: Entry) => {
      const since = entry.since.get(key);
      return since === undefined || version === null || version > since;
    };
    if (change.scope === 'c') {
      for (const entry of [...(this.dashboards.get(change.id) ?? [])]) {
        if (fresh(entry)) this.deliver(entry, { event: 'change', data: { kind } });
      }
    } else if (change.scope === 'f') {
      for (const entry of [...(this.fanChats.get(change.id) ?? [])])
        if (fresh(entry)) this.deliver(entry, { event: 'change', data: { kind } });
    } else if (change.scope === 'p') {
      for (const entry of [...(this.fansOfCreator.get(change.id) ?? [])]) {
        if (fresh(entry))
          this.deliver(entry, { event: 'change', data: { kind: kind === 'messages' ? 'status' : kind } });
      }
    }
  }

  /** Keep-alives, and every right checked again: the backstop for a session that expired. */
  private heartbeat(): void {
    const all = this.entries();
    for (const entry of all) entry.stream.comment('keep-alive');
    this.recheck(all);
  }
}
