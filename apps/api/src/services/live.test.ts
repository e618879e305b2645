import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Change, ChangeFeed, Draft } from './changes.ts';
import { LiveHub, type LiveHubOptions, LiveStream, type RightsCheck, type StreamRight } from './live.ts';

/** The change feed as the hub uses it: changes and drafts are handed in by the test. */
class FakeFeed {
  changes = new Set<(c: Change) => void>();
  drafts = new Set<(d: Draft) => void>();
  resets = new Set<() => void>();
  subscribe(fn: (c: Change) => void) {
    this.changes.add(fn);
    return () => this.changes.delete(fn);
  }
  onDraft(fn: (d: Draft) => void) {
    this.drafts.add(fn);
    return () => this.drafts.delete(fn);
  }
  onReset(fn: () => void) {
    this.resets.add(fn);
    return () => this.resets.delete(fn);
  }
  async versionsOf(scopes: readonly unknown[]) {
    return scopes.map(() => '1');
  }
  change(c: Partial<Change> & Pick<Change, 'scope' | 'id' | 'table'>) {
    for (const fn of this.changes) fn({ version: '2', fanId: null, ...c });
  }
  draft(d: Draft) {
    for (const fn of this.drafts) fn(d);
  }
}

/** A response that keeps what was written. */
class FakeResponse {
  out = '';
  ended = false;
  destroyed = false;
  writableEnded = false;
  write(chunk: string) {
    this.out += chunk;
    return true;
  }
  end() {
    this.ended = true;
    this.writableEnded = true;
  }
  once() {}
}

/** A rights check the test answers by hand, one call at a time. */
function manualCheck() {
  const pending: {
    rights: readonly StreamRight[];
    resolve: (r: boolean[]) => void;
    reject: (e: Error) => void;
  }[] = [];
  const check: RightsCheck = (rights) =>
    new Promise((resolve, reject) => {
      pending.push({ rights, resolve, reject });
    });
  const flush = async () => new Promise((r) => setImmediate(r));
  return { check, pending, flush };
}

describe('LiveHub: a stream hears nothing its right does not cover', () => {
  let hub: LiveHub | undefined;
  afterEach(() => hub?.close());

  const make = (check: RightsCheck, extra: Partial<LiveHubOptions> = {}) => {
    const feed = new FakeFeed();
    hub = new LiveHub(feed as unknown as ChangeFeed, {
      check,
      maxLifetimeMs: 60_000,
      perAddress: 10,
      perProcess: 10,
      ...extra,
    });
    return { feed, hub };
  };
  const fanStream = (h: LiveHub) => {
    const res = new FakeResponse();
    const stream = new LiveStream(res as unknown as ServerResponse, () => '1.1');
    h.addFanChat('creator-1', 'fan-1', stream, { address: '10.0.0.1', cookieHash: 'old-browser' });
    return res;
  };

  it('holds a draft while a change to the fan row is checked, and drops it when the chat moved', async () => {
    const m = manualCheck();
    const { feed, hub } = make(m.check);
    const res = fanStream(hub);
    // The check as the stream starts: nothing is sent before it passes.
    feed.draft({ fanId: 'fan-1', replyTo: '1', text: 'early', done: false });
    expect(res.out).toBe('');
    await m.flush();
    m.pending.shift()!.resolve([true]);
    await m.flush();
    expect(res.out).toContain('"text":"early"');
    // The fan row changes (a transfer): a draft arriving before the check answers waits for it.
    feed.change({ scope: 'f', id: 'fan-1', table: 'fans' });
    feed.draft({ fanId: 'fan-1', replyTo: '2', text: 'secret answer', done: false });
    await m.flush();
    expect(res.out).not.toContain('secret answer');
    expect(m.pending).toHaveLength(1);
    expect(m.pending[0]!.rights).toEqual([{ kind: 'fan', fanId: 'fan-1', cookieHash: 'old-browser' }]);
    m.pending.shift()!.resolve([false]);
    await m.flush();
    expect(res.ended).toBe(true);
    expect(res.out).not.toContain('secret answer');
    expect(res.out).not.toContain('"kind":"messages"');
    expect(hub.size).toBe(0);
    expect(hub.revoked).toBe(1);
    // Ended streams hear nothing more.
    feed.draft({ fanId: 'fan-1', replyTo: '2', text: 'later', done: true });
    expect(res.out).not.toContain('later');
  });

  it('passes on what it held, in order, when the right still holds', async () => {
    const m = manualCheck();
    const { feed, hub } = make(m.check);
    const res = fanStream(hub);
    await m.flush();
    m.pending.shift()!.resolve([true]);
    await m.flush();
    feed.change({ scope: 'f', id: 'fan-1', table: 'fans' });
    feed.draft({ fanId: 'fan-1', replyTo: '3', text: 'a', done: false });
    feed.draft({ fanId: 'fan-1', replyTo: '3', text: 'ab', done: true });
    await m.flush();
    expect(res.out).not.toContain('draft');
    m.pending.shift()!.resolve([true]);
    await m.flush();
    const order = [...res.out.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((x) => `${x[1]} ${x[2]}`);
    expect(order).toEqual([
      'change {"kind":"messages"}',
      'draft {"replyTo":"3","text":"a","done":false}',
      'draft {"replyTo":"3","text":"ab","done":true}',
    ]);
    expect(res.ended).toBe(false);
  });

  it('passes on no change committed before the stream opened (a late notice), only newer ones', async () => {
    const m = manualCheck();
    const { feed, hub } = make(m.check);
    const res = new FakeResponse();
    const stream = new LiveStream(res as unknown as ServerResponse, () => '7.5');
    hub.addFanChat('creator-1', 'fan-1', stream, { address: 'a', cookieHash: 'h' }, false, '7.5');
    await m.flush();
    m.pending.shift()!.resolve([true]);
    await m.flush();
    // The question asked just before the stream opened, heard late from another process.
    feed.change({ scope: 'f', id: 'fan-1', table: 'messages', version: '7' });
    feed.change({ scope: 'p', id: 'creator-1', table: 'creators', version: '5' });
    expect(res.out).not.toContain('event: change');
    feed.change({ scope: 'f', id: 'fan-1', table: 'messages', version: '8' });
    feed.change({ scope: 'p', id: 'creator-1', table: 'creators', version: '9' });
    const events = [...res.out.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((x) => `${x[1]} ${x[2]}`);
    expect(events).toEqual(['change {"kind":"messages"}', 'change {"kind":"status"}']);
  });

  it('checks every right again on each heartbeat (a session that expired unannounced ends)', async () => {
    let valid = true;
    const seen: StreamRight[][] = [];
    const { hub } = make(
      async (rights) => {
        seen.push([...rights]);
        return rights.map(() => valid);
      },
      { heartbeatMs: 30 },
    );
    const res = new FakeResponse();
    hub.addDashboard('creator-1', new LiveStream(res as unknown as ServerResponse, () => '1'), {
      address: '10.0.0.2',
      sessionId: 'session-hash',
    });
    await new Promise((r) => setTimeout(r, 80));
    expect(res.ended).toBe(false);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    valid = false;
    await new Promise((r) => setTimeout(r, 80));
    expect(res.ended).toBe(true);
    expect(seen.at(-1)).toEqual([{ kind: 'session', sessionId: 'session-hash', creatorId: 'creator-1' }]);
  });

  it('ends a stream whose right cannot be checked (the database is away)', async () => {
    const m = manualCheck();
    const { hub } = make(m.check);
    const res = fanStream(hub);
    await m.flush();
    m.pending.shift()!.reject(new Error('database away'));
    await m.flush();
    expect(res.ended).toBe(true);
  });

  it('checks the rights of streams opened in one burst with one call', async () => {
    const m = manualCheck();
    const { hub } = make(m.check);
    for (let i = 0; i < 3; i++) {
      const res = new FakeResponse();
      hub.addFanChat('c', `fan-${i}`, new LiveStream(res as unknown as ServerResponse, () => '1'), {
        address: 'a',
        cookieHash: `h${i}`,
      });
    }
    await m.flush();
    expect(m.pending).toHaveLength(1);
    expect(m.pending[0]!.rights).toHaveLength(3);
  });

  it('counts streams per address and per process, and frees a place when one ends', async () => {
    const m = manualCheck();
    const { hub } = make(m.check, { perAddress: 2, perProcess: 3 });
    const add = (address: string) => {
      const res = new FakeResponse();
      return hub.addDashboard('c', new LiveStream(res as unknown as ServerResponse, () => '1'), {
        address,
        sessionId: 's',
      });
    };
    const first = add('a');
    add('a');
    expect(hub.refusal('a')).not.toBeNull();
    expect(hub.refusal('b')).toBeNull();
    add('b');
    expect(hub.refusal('c')).not.toBeNull();
    first();
    first();
    expect(hub.size).toBe(2);
    expect(hub.refusal('a')).toBeNull();
  });

  it('ends a stream at its lifetime', async () => {
    const { hub } = make(async (rights) => rights.map(() => true), { maxLifetimeMs: 40 });
    const res = fanStream(hub);
    await new Promise((r) => setTimeout(r, 100));
    expect(res.ended).toBe(true);
    expect(hub.size).toBe(0);
  });
});
