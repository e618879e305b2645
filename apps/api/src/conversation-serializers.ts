import {
  DEFAULT_STATUS_TEXT_OFFLINE,
  type Fan,
  type FanChatMessage,
  isFileCitation,
  type Message,
  type MessageSource,
  type Notice,
  type PublicCreator,
  STATUS_TEXT_OFFLINE_NO_AI,
  type StoredSource,
  type Template,
} from '@fanpilot/contracts';
import type { FanStats, MessageView } from '@fanpilot/core';
import type { CreatorRow, NoticeRow, TemplateRow } from '@fanpilot/db';
import { iso, objectUrl } from './serializers.ts';

/**
 * A citation as a message list shows it: without the passage and item kept for the fanCitation
 * call, and a file's without an address (older answers carried the file's, which serves nothing
 * now): the apps open a file citation in their passage viewer by its position.
 */
export function toMessageSource(stored: StoredSource): MessageSource {
  const { itemId: _item, passage: _passage, url, ...shown } = stored;
  return isFileCitation(shown) || url === undefined ? shown : { ...shown, url };
}

const sourcesOf = (m: MessageView) => (m.sources?.length ? { sources: m.sources.map(toMessageSource) } : {});

/** A message as the creator's dashboard reads it; `timestamp` and `created_at` are the same instant. */
export function toMessage(m: MessageView): Message {
  const at = m.createdAt.toISOString();
  return {
    id: m.id,
    from: m.sender,
    message: m.body,
    timestamp: at,
    created_at: at,
    status: m.status,
    fanId: m.fanKey,
    fanName: m.fanName,
    replyTo: m.replyTo,
    ...sourcesOf(m),
    fileAttachment: m.attachment,
    ...(m.handedToCreator ? { handedToCreator: true as const } : {}),
    ...(m.rating ? { rating: m.rating } : {}),
  };
}

/** A message as the fan's own chat page reads it. */
export function toFanChatMessage(m: MessageView): FanChatMessage {
  const at = m.createdAt.toISOString();
  return {
    id: m.id,
    message: m.body,
    from: m.sender,
    created_at: at,
    timestamp: at,
    status: m.status,
    replyTo: m.replyTo,
    ...sourcesOf(m),
    ...(m.attachment ? { fileAttachment: m.attachment } : {}),
    ...(m.handedToCreator ? { handedToCreator: true as const } : {}),
    ...(m.rating ? { rating: m.rating } : {}),
    ...(m.sender === 'fan' && m.clientKey ? { clientId: m.clientKey } : {}),
  };
}

export function toNotice(row: NoticeRow): Notice {
  return { id: row.id, message: row.message, timestamp: iso(row.created_at), sentCount: row.sent_count };
}

/** The creator's view of an announcement: also whether, and to how many devices, it was pushed. */
export function toCreatorNotice(row: NoticeRow): Notice {
  return { ...toNotice(row), pushed: row.push, pushedCount: row.pushed_count };
}

export function toTemplate(row: TemplateRow): Template {
  return { id: row.id, title: row.title, content: row.content, createdAt: iso(row.created_at) };
}

export function toFan(s: FanStats): Fan {
  return {
    fanId: s.fanKey,
    fanName: s.name,
    messageCount: s.messageCount,
    pendingCount: s.pendingCount,
    lastMessageTime: s.lastMessageTime ? s.lastMessageTime.toISOString() : null,
    firstSeenAt: s.createdAt.toISOString(),
  };
}

export function toPublicCreator(
  row: CreatorRow,
  notice: NoticeRow | undefined,
  initialMessages: string[] = [],
  aiAvailable = true,
  chatbotName: string | null = null,
): PublicCreator {
  return {
    username: row.username,
    name: row.name,
    profileImageUrl: objectUrl(row.profile_image_key),
    isOnline: row.is_online,
    // Offline with no AI to answer (no chatbot, credits or budget): never 'Offline - AI responding'.
    statusText:
      !row.is_online && !aiAvailable
        ? STATUS_TEXT_OFFLINE_NO_AI
        : row.status_text || DEFAULT_STATUS_TEXT_OFFLINE,
    notice: notice ? toNotice(notice) : null,
    initialMessages,
    aiAvailable,
    description: row.description,
    chatbotName,
  };
}
