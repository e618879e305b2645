import { describe, expect, it } from 'vitest';
import {
  conversationPageUrl,
  conversationQuery,
  conversationsQuery,
  conversationsUrl,
  creatorPath,
  inboxStatsQuery,
  messagesQuery,
  readOnlineStatus,
  withSearch,
} from './queries.ts';

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
  it('builds query strings, leaving out blank and missing values', () => {
    expect(withSearch('conversations', { filter: 'all', q: '', cursor: null, limit: 25 })).toBe(
      'conversations?filter=all&limit=25',
    );
    expect(withSearch('stats', {})).toBe('stats');
    expect(withSearch('stats', { tz: 'America/New_York' })).toBe('stats?tz=America%2FNew_York');
  });

  it('asks for a page of conversations by filter, search and cursor', () => {
    expect(conversationsUrl('mina', { filter: 'waiting', q: ' Ann ' }, 'abc_1')).toBe(
      '/api/creators/username/mina/conversations?filter=waiting&q=Ann&cursor=abc_1&limit=25',
    );
  });

  it("asks for a fan's newest page, then the page before a cursor", () => {
    expect(conversationPageUrl('mina', 'mobile_fan:1', null)).toBe(
      '/api/creators/username/mina/fans/mobile_fan%3A1/conversation?limit=50',
    );
    expect(conversationPageUrl('mina', 'f', 'old-1')).toBe(
      '/api/creators/username/mina/fans/f/conversation?before=old-1&limit=50',
    );
  });

  it('keeps every inbox query under the creator path, so sends and deletes refresh them', () => {
    const prefix = [...creatorPath('mina')];
    for (const key of [
      inboxStatsQuery('mina', 'UTC').queryKey,
      conversationsQuery('mina', { filter: 'all', q: '' }).queryKey,
      conversationQuery('mina', 'f').queryKey,
      messagesQuery('mina').queryKey,
    ]) {
      expect(key.slice(0, 2)).toEqual(prefix);
    }
    expect(inboxStatsQuery('mina', 'Europe/Berlin').queryKey.at(-1)).toBe('stats?tz=Europe%2FBerlin');
    expect(messagesQuery('mina').queryKey.at(-1)).toBe('messages?limit=20');
  });
});
