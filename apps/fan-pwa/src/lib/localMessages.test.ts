import { describe, expect, it } from 'vitest';
import { clientIdsOf, fromOutboxItem, type LocalMessage, pendingLocalMessages } from './localMessages.ts';

const local = (id: string, state: LocalMessage['state'], createdAt: number, confirmedAt?: number) => ({
  id,
  text: id,
  state,
  createdAt,
  confirmedAt,
});

describe('local messages beside the history', () => {
  it('shows queued messages until they are sent', () => {
    const shown = pendingLocalMessages([local('q', 'queued', 1)], 10_000);
    expect(shown.map((m) => m.id)).toEqual(['q']);
  });

  it('shows a sent message until a history read that started after it was accepted', () => {
    const sent = local('s', 'sent', 1, 5_000);
    expect(pendingLocalMessages([sent], undefined)).toHaveLength(1);
    expect(pendingLocalMessages([sent], 4_000)).toHaveLength(1);
    expect(pendingLocalMessages([sent], 5_001)).toHaveLength(0);
  });

  it('never shows a message twice: one the history holds (its clientId) goes, however the read and the send crossed', () => {
    // The read started before the send was confirmed, yet already holds the question (the live
    // stream refetched as it was stored): the local copy must not show beside it.
    const sent = local('s', 'sent', 1, 5_000);
    const queued = local('q', 'queued', 2);
    expect(pendingLocalMessages([sent, queued], 4_000, new Set(['s', 'q']))).toEqual([]);
    expect(pendingLocalMessages([sent, queued], 4_000, new Set(['other'])).map((m) => m.id)).toEqual([
      's',
      'q',
    ]);
    expect(clientIdsOf([{ clientId: 's' }, {}, { clientId: undefined }])).toEqual(new Set(['s']));
  });

  it('orders by when the fan wrote them', () => {
    const shown = pendingLocalMessages([local('b', 'queued', 2), local('a', 'queued', 1)], 0);
    expect(shown.map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('carries the attachment name and size, not its content', () => {
    const message = fromOutboxItem(
      {
        id: 'x',
        creator: 'ana',
        fanId: 'f',
        message: 'see file',
        createdAt: 1,
        attachment: { filename: 'a.pdf', contentBase64: 'AAAA', size: 3, type: 'application/pdf' },
      },
      'sent',
      7,
    );
    expect(message).toEqual({
      id: 'x',
      text: 'see file',
      attachment: { filename: 'a.pdf', size: 3 },
      state: 'sent',
      createdAt: 1,
      confirmedAt: 7,
    });
  });
});
