import type {
  AskRequest,
  AskResponse,
  CreateFanTransferResponse,
  ErrorBody,
  FanChatlogResponse,
  FanChatMessage,
  PublicCreator,
  RedeemFanTransferResponse,
} from '@fanpilot/contracts';
import type { OutboxItem, SendOutcome } from './outbox.ts';
import { isKeptAnswer } from './routes.ts';

export type { FanChatMessage, PublicCreator };

/** A non-success answer. The message follows SPEC section 8: "<status>: <body or status text>". */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Partial<ErrorBody> | null,
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function retryAfter(response: Response): number | null {
  const raw = response.headers.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds));
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, Math.round((date - Date.now()) / 1000));
}

async function send<T>(path: string, init: RequestInit = {}): Promise<{ body: T; headers: Headers }> {
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  const response = await fetch(path, { ...init, headers, credentials: 'include' });
  const text = await response.text();
  if (!response.ok) {
    let body: Partial<ErrorBody> | null = null;
    try {
      body = text ? (JSON.parse(text) as Partial<ErrorBody>) : null;
    } catch {
      body = null;
    }
    throw new ApiError(
      response.status,
      `${response.status}: ${text || response.statusText}`,
      body,
      retryAfter(response),
    );
  }
  return { body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  return (await send<T>(path, init)).body;
}

const segment = encodeURIComponent;

/** GET /api/public/creators/:username: the creator's card. */
export function fetchCreatorProfile(username: string): Promise<PublicCreator> {
  return request(`/api/public/creators/${segment(username)}`);
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
    const { body, headers } = await send<Partial<FanChatlogResponse> | null>(
      `/api/chatlog/fan/${segment(fanId)}?creator=${segment(creator)}`,
    );
    return { messages: body?.messages ?? [], kept: isKeptAnswer(headers) };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { messages: [], kept: false };
    throw err;
  }
}

/** Whether the api refused this browser a conversation that belongs to another browser. */
export function isOtherBrowsersChat(err: unknown): boolean {
  return err instanceof ApiError && err.status === 403;
}

/** The words of an error answer (`{ error, message }`), or `fallback`. */
export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && typeof err.body?.message === 'string' ? err.body.message : fallback;
}

/** POST /api/fan-transfers: a one-time link that moves this chat to another browser. */
export function createFanTransfer(creator: string, fanId: string): Promise<CreateFanTransferResponse> {
  return request('/api/fan-transfers', { method: 'POST', body: JSON.stringify({ creator, fanId }) });
}

/** POST /api/fan-transfers/redeem: this browser takes over the chat the link was made for. */
export function redeemFanTransfer(token: string): Promise<RedeemFanTransferResponse> {
  return request('/api/fan-transfers/redeem', { method: 'POST', body: JSON.stringify({ token }) });
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

/** POST /api/ask. The item's id is the Idempotency-Key, so a retried send is taken once. */
export function postAsk(item: OutboxItem): Promise<AskResponse> {
  return request('/api/ask', {
    method: 'POST',
    body: JSON.stringify(toAskRequest(item)),
    headers: { 'idempotency-key': item.id },
  });
}

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
