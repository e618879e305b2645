import type { OutboxItem } from './outbox.ts';

/** A message of this fan's that the server's history does not show yet. */
export interface LocalMessage {
  id: string;
  text: string;
  attachment?: { filename: string; size: number } | undefined;
  /** queued: waiting in the outbox. sent: accepted, until a history read started after that. */
  state: 'queued' | 'sent';
  createdAt: number;
  confirmedAt?: number | undefined;
}

export function fromOutboxItem(item: OutboxItem, state: LocalMessage['state'], now?: number): LocalMessage {
  return {
    id: item.id,
    text: item.message,
    attachment: item.attachment
      ? { filename: item.attachment.filename, size: item.attachment.size }
      : undefined,
    state,
    createdAt: item.createdAt,
    confirmedAt: state === 'sent' ? (now ?? Date.now()) : undefined,
  };
}

/**
 * Which local messages still need showing next to the history. One the history already holds (its
 * stored copy carries the local id as `clientId`, the ask's Idempotency-Key) is never shown twice,
 * however the read and the send crossed. Otherwise a sent message is dropped once a history read
 * that started after the server accepted it has arrived, since that read includes it.
 */
export function pendingLocalMessages(
  locals: readonly LocalMessage[],
  historyRequestedAt: number | undefined,
  inHistory: ReadonlySet<string> = new Set(),
): LocalMessage[] {
  return locals
    .filter((local) => !inHistory.has(local.id))
    .filter(
      (local) =>
        local.state === 'queued' ||
        historyRequestedAt === undefined ||
        (local.confirmedAt ?? 0) >= historyRequestedAt,
    )
    .sort((a, b) => a.createdAt - b.createdAt);
}

/** The local ids (clientId) of the fan's questions the history holds. */
export function clientIdsOf(messages: readonly { clientId?: string | undefined }[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) if (m.clientId) ids.add(m.clientId);
  return ids;
}
