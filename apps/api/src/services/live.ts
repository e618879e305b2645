import type { ServerResponse } from 'node:http';
import type { Change, ChangeFeed } from './changes.ts';

/**
 * Server-Sent Events for the open dashboards and fan chats of this api process. Events say what
 * changed (the client then re-reads it, a 304 when nothing it shows did); each carries the scope
 * versions as its id, so a reconnect (Last-Event-ID) that missed something is told to sync.
 * Changes come from the change feed (every process hears every commit), answer drafts from the
 * answer bus (the process that writes the answer publishes them).
 */

/** What a stream is told. */
export type LiveEvent =
  | { event: 'change'; data: { kind: string } }
  | { event: 'sync'; data: Record<string, never> }
  | { event: 'draft'; data: { replyTo: string; text: string; done: boolean } };

/** The kind of change a table write is, as a client groups its queries. */
export function kindOf(table: string): string {
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

const HEARTBEAT_MS = 20_000;

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
    const ok = this.res.write(
      `id: ${this.idOf()}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`,
    );
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
    if (!this.res.destroyed) this.res.end();
  }
}

interface Entry {
  stream: LiveStream;
  creatorId: string;
  fanId: string | null;
}

export class LiveHub {
  /** The creator's dashboards, by creator id. */
  private readonly dashboards = new Map<string, Set<Entry>>();
  /** Fan chats by fan row id, and by their creator's id (for the creator's public face). */
  private readonly fanChats = new Map<string, Set<Entry>>();
  private readonly fansOfCreator = new Map<string, Set<Entry>>();
  /** Versions last heard, for stream ids (scope:id → version). */
  private readonly heard = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  private readonly unreset: () => void;

  constructor(private readonly feed: ChangeFeed) {
    const unchange = feed.subscribe((change) => this.onChange(change));
    const undraft = feed.onDraft((d) =>
      this.draft(d.fanId, { replyTo: d.replyTo, text: d.text, done: d.done }),
    );
    this.unsubscribe = () => {
      unchange();
      undraft();
    };
    // Announcements may have been missed while the feed was lost: every stream re-reads.
    this.unreset = feed.onReset(() => {
      this.heard.clear();
      this.each((entry) => entry.stream.send({ event: 'sync', data: {} }));
    });
    this.timer = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  get size(): number {
    let n = 0;
    for (const set of this.dashboards.values()) n += set.size;
    for (const set of this.fanChats.values()) n += set.size;
    return n;
  }

  /** Ends every stream (shutting down: the clients reconnect to another process). */
  close(): void {
    clearInterval(this.timer);
    this.unsubscribe();
    this.unreset();
    this.each((entry) => entry.stream.end());
  }

  /** How many streams this creator's dashboards, or this fan's chats, hold now. */
  count(kind: 'dashboard' | 'fan', id: string): number {
    return (kind === 'dashboard' ? this.dashboards : this.fanChats).get(id)?.size ?? 0;
  }

  private each(fn: (entry: Entry) => void): void {
    for (const map of [this.dashboards, this.fanChats]) {
      for (const set of map.values()) for (const entry of [...set]) fn(entry);
    }
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

  addDashboard(creatorId: string, stream: LiveStream): () => void {
    return this.add(this.dashboards, 'c', creatorId, { stream, creatorId, fanId: null });
  }

  addFanChat(creatorId: string, fanId: string, stream: LiveStream): () => void {
    const entry = { stream, creatorId, fanId };
    const a = this.add(this.fanChats, 'f', fanId, entry);
    const b = this.add(this.fansOfCreator, 'p', creatorId, entry);
    return () => {
      a();
      b();
    };
  }

  /** An answer being written to this fan (from the answer bus). */
  draft(fanId: string, data: { replyTo: string; text: string; done: boolean }): void {
    for (const entry of this.fanChats.get(fanId) ?? []) entry.stream.send({ event: 'draft', data });
  }

  private add(map: Map<string, Set<Entry>>, scope: 'c' | 'f' | 'p', key: string, entry: Entry): () => void {
    let set = map.get(key);
    if (!set) {
      set = new Set();
      map.set(key, set);
    }
    set.add(entry);
    return () => {
      entry.stream.close();
      set.delete(entry);
      if (set.size === 0 && map.get(key) === set) {
        map.delete(key);
        // Versions are kept only for scopes someone follows.
        this.heard.delete(`${scope}:${key}`);
      }
    };
  }

  private onChange(change: Change): void {
    if (this.entriesFor(change.scope, change.id) > 0) {
      this.heard.set(`${change.scope}:${change.id}`, change.version);
    }
    const kind = kindOf(change.table);
    if (change.scope === 'c') {
      for (const entry of this.dashboards.get(change.id) ?? []) {
        entry.stream.send({ event: 'change', data: { kind } });
      }
    } else if (change.scope === 'f') {
      for (const entry of this.fanChats.get(change.id) ?? [])
        entry.stream.send({ event: 'change', data: { kind } });
    } else if (change.scope === 'p') {
      for (const entry of this.fansOfCreator.get(change.id) ?? []) {
        entry.stream.send({ event: 'change', data: { kind: kind === 'messages' ? 'status' : kind } });
      }
    }
  }

  private heartbeat(): void {
    this.each((entry) => entry.stream.comment('keep-alive'));
  }
}
