import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refreshFor } from './live.ts';
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
