import {
  ApiError,
  type AskRequest,
  type AskResponse,
  type CitedPassage,
  type CreateFanTransferResponse,
  clientIn,
  type FanChatlogResponse,
  type FanChatMessage,
  type FanMemory,
  fanRoutes,
  type OpenWidgetChatResponse,
  type PublicCreator,
  type RedeemFanTransferResponse,
  type SubscribePushRequest,
  type UnsubscribePushRequest,
} from '@fanpilot/contracts';
import { embedFetch } from './embed.ts';
import type { OutboxItem, SendOutcome } from './outbox.ts';
import { isKeptAnswer } from './routes.ts';

export type { FanChatMessage, PublicCreator };
export { ApiError };

/**
 * The fan app's api client: the fan's calls by name (packages/contracts `fanRoutes`). Answers are
 * typed by the call's schema but not parsed with it here, so the first screen loads no zod and no
 * table of the creator's calls (docs/decisions/0015-one-owner-for-each-rule.md).
 */
const client = clientIn(fanRoutes, { fetch: embedFetch });

/** The creator's card (publicCreator). */
export function fetchCreatorProfile(username: string): Promise<PublicCreator> {
  return client.call('publicCreator', { params: { username } });
}

export interface FanChatlog {
  /** Oldest first. */
  messages: FanChatMessage[];
  /** True when the service worker answered from what it kept (offline): not a fresh read. */
  kept: boolean;
}

/** The fan's conversation; a fan who never wrote has none yet (404 reads as empty). */
export async function fetchFanChatlog(fanId: string, creator: string): Promise<FanChatlog> {
  try {
    const { body, headers } = await client.send('fanChatlog', { params: { fanId }, query: { creator } });
    return {
      messages: (body as Partial<FanChatlogResponse> | null)?.messages ?? [],
      kept: isKeptAnswer(headers),
    };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { messages: [], kept: false };
    throw err;
  }
}

/** The passage citation `n` of an AI answer quoted from a file (the fanCitation call). */
export function fetchCitedPassage(fanId: string, messageId: string, n: number): Promise<CitedPassage> {
  return client.call('fanCitation', { params: { fanId, messageId, n } });
}

/** The fan rates an AI answer of their own chat (null takes the rating back). */
export function rateAnswer(
  fanId: string,
  messageId: string,
  body: { rating: 'up' | 'down' | null; comment?: string },
): Promise<{ rating: 'up' | 'down' | null; comment: string | null }> {
  return client.call('rateAnswer', { params: { fanId, messageId }, body });
}

/** Whether the api refused this browser a conversation that belongs to another browser. */
export function isOtherBrowsersChat(err: unknown): boolean {
  return err instanceof ApiError && err.status === 403;
}

/** The words of an error answer (`{ error, message }`), or `fallback`. */
export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && typeof err.body?.message === 'string' ? err.body.message : fallback;
}

/**
 * The widget's frame opens its chat (openWidgetChat): the api sets the frame's partitioned fan
 * cookie, exchanges an old loader's token once, and says which conversation this browser holds.
 */
export function openWidgetChat(username: string, legacyToken?: string): Promise<OpenWidgetChatResponse> {
  return client.call('openWidgetChat', { params: { username }, body: legacyToken ? { legacyToken } : {} });
}

/** A one-time link that moves this chat to another browser (createFanTransfer). */
export function createFanTransfer(creator: string, fanId: string): Promise<CreateFanTransferResponse> {
  return client.call('createFanTransfer', { body: { creator, fanId } });
}

/** This browser takes over the chat the link was made for (redeemFanTransfer). */
export function redeemFanTransfer(token: string): Promise<RedeemFanTransferResponse> {
  return client.call('redeemFanTransfer', { body: { token } });
}

export function toAskRequest(item: OutboxItem): AskRequest {
  return {
    creator: item.creator,
    message: item.message,
    fanId: item.fanId,
    ...(item.fanName ? { fanName: item.fanName } : {}),
    ...(item.attachment
      ? { attachment: { filename: item.attachment.filename, contentBase64: item.attachment.contentBase64 } }
      : {}),
  };
}

/** The ask call. The item's id is the Idempotency-Key, so a retried send is taken once. */
export function postAsk(item: OutboxItem): Promise<AskResponse> {
  return client.call('ask', { body: toAskRequest(item), headers: { 'idempotency-key': item.id } });
}

/** Web Push: the api's public key, and this device's subscription kept or forgotten. */
export const pushKey = () => client.call('pushKey', {});
export const subscribePush = (body: SubscribePushRequest) => client.call('subscribePush', { body });
export const unsubscribePush = (body: UnsubscribePushRequest) => client.call('unsubscribePush', { body });

/** A failure the network caused (no answer at all), as opposed to an answer saying no. */
export function isNetworkFailure(err: unknown): boolean {
  return err instanceof TypeError || (err instanceof DOMException && err.name === 'NetworkError');
}

/** How a send ended, for the outbox: a later try can only help with no answer, 408, 429 or 5xx. */
export function outcomeOf(err: unknown): SendOutcome {
  if (!(err instanceof ApiError)) return 'retry';
  if (err.status === 408 || err.status === 429 || err.status >= 500) return 'retry';
  return 'rejected';
}

export async function sendOutboxItem(item: OutboxItem): Promise<SendOutcome> {
  try {
    await postAsk(item);
    return 'sent';
  } catch (err) {
    return outcomeOf(err);
  }
}

/** What the creator's assistant remembers about this fan (docs/product.md#memory). */
export function fetchFanMemory(creator: string, fanId: string): Promise<FanMemory> {
  return client.call('fanMemory', { params: { fanId }, query: { creator } });
}

/** The fan turns memory on or off (off deletes everything kept). */
export function setFanMemory(creator: string, fanId: string, enabled: boolean): Promise<FanMemory> {
  return client.call('setFanMemory', { params: { fanId }, query: { creator }, body: { enabled } });
}

/** The fan deletes one item of their memory. */
export function deleteFanMemoryItem(creator: string, fanId: string, itemId: string): Promise<FanMemory> {
  return client.call('deleteFanMemoryItem', { params: { fanId, itemId }, query: { creator } });
}
