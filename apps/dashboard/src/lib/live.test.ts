import { encodeLiveEvent, type LiveEvent } from '@fanpilot/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { listenToDashboardEvents, refreshFor } from './live.ts';
import { conversationQuery, conversationsQuery, inboxStatsQuery } from './queries.ts';

describe('refreshFor', () => {
  it("re-reads the creator's calls but leaves the paged inbox lists to their newest-page poll", () => {
    const client = new QueryClient();
    const list = conversationsQuery('mina', { filter: 'all', q: '' });
    const conversation = conversationQuery('mina', 'f');
    const stats: unknown[] = [...inboxStatsQuery('mina', 'UTC').queryKey];
    // As a component's useInfiniteQuery would: the queries are built from their options, meta included.
    for (const { queryKey, meta } of [list, conversation]) {
      client.getQueryCache().build(client, { queryKey: [...queryKey], meta });
      client.setQueryData([...queryKey], { pages: [], pageParams: [] });
    }
    client.setQueryData(stats, { fans: 1 });
    refreshFor(client, 'mina', new Set(['messages']));
    const invalidated = (key: readonly unknown[]) => client.getQueryState([...key])?.isInvalidated;
    expect(invalidated(stats)).toBe(true);
    expect(invalidated(list.queryKey)).toBe(false);
    expect(invalidated(conversation.queryKey)).toBe(false);
  });
});

describe('listenToDashboardEvents', () => {
  it('names what to re-read from the events the api writes, and skips one it cannot read', () => {
    const source = new EventTarget();
    const kinds: string[] = [];
    const stop = listenToDashboardEvents(source, (kind) => kinds.push(kind));
    const send = (name: string, data: unknown) => source.dispatchEvent(new MessageEvent(name, { data }));
    const events: LiveEvent[] = [
      { event: 'change', data: { kind: 'knowledge' } },
      { event: 'sync', data: {} },
      { event: 'draft', data: { replyTo: 'q', text: 'hi', done: false } },
    ];
    for (const event of events) {
      const frame = encodeLiveEvent(event, '1');
      send(/^event: (.*)$/m.exec(frame)![1]!, /^data: (.*)$/m.exec(frame)![1]!);
    }
    expect(kinds).toEqual(['knowledge', 'sync']);
    for (const [name, data] of [
      ['change', 'not json'],
      ['change', '{"kind":"everything"}'],
      ['change', '{}'],
      ['sync', 'null'],
      ['change', { kind: 'messages' }],
    ] as const) {
      expect(() => send(name, data)).not.toThrow();
    }
    expect(kinds).toEqual(['knowledge', 'sync']);
    stop();
    send('sync', '{}');
    expect(kinds).toEqual(['knowledge', 'sync']);
  });
});
