import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  conversationQuery,
  conversationsQuery,
  creatorPath,
  fetchConversationPage,
  fetchConversations,
  inboxStatsQuery,
  messagesQuery,
  readOnlineStatus,
} from './queries.ts';

const fetchMock = vi.fn<typeof fetch>();
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

/** The address the next call asks for (its answer fails; only the address matters here). */
async function addressOf(run: () => Promise<unknown>): Promise<string> {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockResolvedValueOnce(new Response(null, { status: 503 }));
  await run().catch(() => {});
  return String(fetchMock.mock.calls.at(-1)?.[0]);
}

describe('readOnlineStatus', () => {
  it('reads the online flag and status text', () => {
    expect(readOnlineStatus({ isOnline: true, statusText: 'Online - Creator responding' })).toEqual({
      isOnline: true,
      statusText: 'Online - Creator responding',
    });
  });

  it('is Offline for anything it cannot read', () => {
    expect(readOnlineStatus(null)).toEqual({ isOnline: false, statusText: '' });
    expect(readOnlineStatus({ isOnline: 'yes' })).toEqual({ isOnline: false, statusText: '' });
  });
});

describe('inbox addresses', () => {
  it('asks for a page of conversations by filter, search and cursor', async () => {
    expect(
      await addressOf(() => fetchConversations('mina', { filter: 'waiting', q: ' Ann ' }, 'abc_1')),
    ).toBe('/api/creators/username/mina/conversations?filter=waiting&q=Ann&cursor=abc_1&limit=25');
  });

  it("asks for a fan's newest page, then the page before a cursor", async () => {
    expect(await addressOf(() => fetchConversationPage('mina', 'mobile_fan:1', null))).toBe(
      '/api/creators/username/mina/fans/mobile_fan%3A1/conversation?limit=50',
    );
    expect(await addressOf(() => fetchConversationPage('mina', 'f', 'old-1'))).toBe(
      '/api/creators/username/mina/fans/f/conversation?before=old-1&limit=50',
    );
  });

  it('keeps every inbox query under the creator path, so sends and deletes refresh them', async () => {
    const prefix = [...creatorPath('mina')];
    for (const key of [
      inboxStatsQuery('mina', 'UTC').queryKey,
      conversationsQuery('mina', { filter: 'all', q: '' }).queryKey,
      conversationQuery('mina', 'f').queryKey,
      messagesQuery('mina').queryKey,
    ]) {
      expect(key.slice(0, 2)).toEqual(prefix);
    }
    expect(inboxStatsQuery('mina', 'Europe/Berlin').queryKey.slice(2)).toEqual([
      'stats',
      { tz: 'Europe/Berlin' },
    ]);
    expect(messagesQuery('mina').queryKey.slice(2)).toEqual(['messages', { limit: 20 }]);
    expect(await addressOf(inboxStatsQuery('mina', 'Europe/Berlin').queryFn as () => Promise<unknown>)).toBe(
      '/api/creators/username/mina/stats?tz=Europe%2FBerlin',
    );
    expect(await addressOf(messagesQuery('mina').queryFn as () => Promise<unknown>)).toBe(
      '/api/creators/username/mina/messages?limit=20',
    );
  });
});
