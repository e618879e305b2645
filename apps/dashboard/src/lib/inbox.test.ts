import type { ConversationPage, ConversationSummary, ConversationsPage, Message } from '@fanpilot/contracts';
import { describe, expect, it } from 'vitest';
import {
  fanDisplayName,
  loadedConversations,
  loadedMessages,
  mergeNewestConversations,
  mergeNewestMessages,
  newestPendingOf,
  type Pages,
  restoredScrollTop,
  scrollPlace,
  waitingBadgeTone,
} from './inbox.ts';

const minute = (n: number) => new Date(Date.UTC(2026, 10, 22, 10, n)).toISOString();

function row(fanId: string, at: number): ConversationSummary {
  return {
    fanId,
    fanName: fanId,
    messageCount: 1,
    pendingCount: 0,
    lastActivityAt: minute(at),
    firstSeenAt: minute(0),
    latestFanMessage: null,
    latestReply: null,
    newestPending: null,
    subscriber: false,
  };
}

function msg(id: number, overrides: Partial<Message> = {}): Message {
  return {
    id: String(id),
    from: 'fan',
    message: `m${id}`,
    timestamp: minute(id),
    created_at: minute(id),
    status: 'answered',
    fanId: 'f',
    fanName: 'Finn',
    replyTo: null,
    ...overrides,
  };
}

const page = (conversations: ConversationSummary[], nextCursor: string | null): ConversationsPage => ({
  conversations,
  nextCursor,
});
const ids = (data: Pages<ConversationsPage>) => loadedConversations(data).map((r) => r.fanId);

describe('mergeNewestConversations', () => {
  // Loaded: a(50) b(40) | c(30) d(20), and more after d.
  const loaded: Pages<ConversationsPage> = {
    pages: [page([row('a', 50), row('b', 40)], 'c1'), page([row('c', 30), row('d', 20)], 'c2')],
    pageParams: [null, 'c1'],
  };

  it('puts fresh activity first and keeps the pages after it, their cursors too', () => {
    const merged = mergeNewestConversations(loaded, page([row('d', 59), row('a', 50)], 'x'));
    expect(ids(merged)).toEqual(['d', 'a', 'b', 'c']);
    expect(merged.pages.at(-1)?.nextCursor).toBe('c2');
    expect(merged.pageParams).toEqual([null, 'c1']);
  });

  it('drops a loaded row that is inside the fresh page span but not in it (deleted or filtered out)', () => {
    const merged = mergeNewestConversations(loaded, page([row('a', 50), row('c', 30)], 'x'));
    expect(ids(merged)).toEqual(['a', 'c', 'd']);
  });

  it('starts over when the fresh page reaches no unchanged row, or is the whole list', () => {
    const flood = page([row('n1', 59), row('n2', 58)], 'x');
    expect(mergeNewestConversations(loaded, flood)).toEqual({ pages: [flood], pageParams: [null] });
    const whole = page([row('a', 50)], null);
    expect(ids(mergeNewestConversations(loaded, whole))).toEqual(['a']);
  });
});

describe('mergeNewestMessages', () => {
  const convo = (messages: Message[], olderCursor: string | null): ConversationPage => ({
    fanId: 'f',
    fanName: 'Finn',
    messages,
    olderCursor,
  });
  // Loaded newest page 5..6 and the page before it 3..4, more before 3.
  const loaded: Pages<ConversationPage> = {
    pages: [convo([msg(5), msg(6, { status: 'pending' })], 'o1'), convo([msg(3), msg(4)], 'o2')],
    pageParams: [null, 'o1'],
  };

  it('adds new messages, updates changed ones and keeps the earlier pages', () => {
    const merged = mergeNewestMessages(loaded, convo([msg(6), msg(7)], 'z'));
    expect(loadedMessages(merged).map((m) => [m.id, m.status])).toEqual([
      ['3', 'answered'],
      ['4', 'answered'],
      ['5', 'answered'],
      ['6', 'answered'],
      ['7', 'answered'],
    ]);
    expect(merged.pages.at(-1)?.olderCursor).toBe('o2');
  });

  it('drops a deleted message in the fresh span, and starts over on a flood or a whole conversation', () => {
    expect(
      loadedMessages(mergeNewestMessages(loaded, convo([msg(4), msg(6)], 'z'))).map((m) => m.id),
    ).toEqual(['3', '4', '6']);
    const flood = convo([msg(8), msg(9)], 'z');
    expect(mergeNewestMessages(loaded, flood)).toEqual({ pages: [flood], pageParams: [null] });
    expect(loadedMessages(mergeNewestMessages(loaded, convo([msg(1)], null))).map((m) => m.id)).toEqual([
      '1',
    ]);
  });
});

describe('newestPendingOf', () => {
  it('answers the newest loaded pending question, else an older one the row names, else none', () => {
    const older = msg(1, { status: 'pending' });
    expect(newestPendingOf([msg(4, { status: 'pending' }), msg(5, { status: 'pending' })], older)?.id).toBe(
      '5',
    );
    expect(newestPendingOf([msg(4), msg(5)], older)?.id).toBe('1');
    // The row's copy is stale: the loaded message says it was answered.
    expect(newestPendingOf([msg(1), msg(5)], older)).toBeNull();
    expect(newestPendingOf([msg(4)], null)).toBeNull();
  });
});

describe('fanDisplayName', () => {
  it('names an unnamed fan Anonymous', () => {
    expect(fanDisplayName(null)).toBe('Anonymous');
    expect(fanDisplayName('  ')).toBe('Anonymous');
    expect(fanDisplayName('Finn')).toBe('Finn');
  });
});

describe('scroll place', () => {
  const items = [
    { id: 'a', top: 0, height: 100 },
    { id: 'b', top: 100, height: 100 },
    { id: 'c', top: 200, height: 100 },
  ];

  it('is at the bottom near the end, else the first message in view and its offset', () => {
    expect(scrollPlace({ scrollTop: 190, scrollHeight: 300, clientHeight: 100 }, items)).toEqual({
      atBottom: true,
    });
    expect(scrollPlace({ scrollTop: 150, scrollHeight: 300, clientHeight: 100 }, items)).toEqual({
      atBottom: false,
      anchorId: 'b',
      anchorOffset: -50,
    });
  });

  it('keeps the anchor where it was after earlier messages were added above it', () => {
    // 'b' started 50 px above the view's top; 400 px of earlier messages moved it to 500.
    const place = scrollPlace({ scrollTop: 150, scrollHeight: 300, clientHeight: 100 }, items);
    expect(restoredScrollTop(place, { scrollHeight: 700, anchorTop: 500 })).toBe(550);
  });

  it('goes to the end at first, at the bottom, or when the anchor is gone', () => {
    expect(restoredScrollTop(null, { scrollHeight: 700, anchorTop: undefined })).toBe(700);
    expect(restoredScrollTop({ atBottom: true }, { scrollHeight: 700, anchorTop: 10 })).toBe(700);
    expect(
      restoredScrollTop(
        { atBottom: false, anchorId: 'x', anchorOffset: 3 },
        { scrollHeight: 700, anchorTop: undefined },
      ),
    ).toBe(700);
  });
});

describe('waitingBadgeTone', () => {
  it('warns only while messages wait', () => {
    expect(waitingBadgeTone(0)).toBe('neutral');
    expect(waitingBadgeTone(1)).toBe('warning');
  });
});
