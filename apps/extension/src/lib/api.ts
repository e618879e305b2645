import {
  ApiError,
  type AskResponse,
  clientIn,
  FAN_TOKEN_HEADER,
  type FanChatMessage,
  fanRoutes,
  type PublicCreator,
} from '@fanpilot/contracts';
import type { ExtensionState } from './state.ts';

export { ApiError, type FanChatMessage };

/**
 * The fan's calls (packages/contracts `fanRoutes`), to the extension's origin, with its fan token as
 * a header and no cookie: the same privacy rule as the fan app (a conversation is readable only by
 * the token it is bound to), kept in this browser profile (docs/extension.md).
 */
export function fanClient(state: Pick<ExtensionState, 'origin' | 'token'>) {
  const client = clientIn(fanRoutes, {
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set(FAN_TOKEN_HEADER, state.token);
      return fetch(`${state.origin}${String(input)}`, { ...init, headers, credentials: 'omit' });
    },
  });
  return {
    creator: (username: string): Promise<PublicCreator> =>
      client.call('publicCreator', { params: { username } }),
    async chatlog(fanId: string, creator: string): Promise<FanChatMessage[]> {
      try {
        const body = await client.call('fanChatlog', { params: { fanId }, query: { creator } });
        return body.messages;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return [];
        throw err;
      }
    },
    ask: (fanId: string, creator: string, message: string): Promise<AskResponse> =>
      client.call('ask', {
        body: { creator, fanId, message },
        headers: { 'idempotency-key': crypto.randomUUID() },
      }),
  };
}

/** The newest reply (the creator's or the AI's) of a chat, or null. */
export function newestReply(messages: FanChatMessage[]): FanChatMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m && m.from !== 'fan') return m;
  }
  return null;
}

/** The words of a refusal, or `fallback` (never "Server error"). */
export function errorWords(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.body?.message) return err.body.message;
  if (err instanceof TypeError)
    return 'Fanpilot could not be reached. Check your connection and the address in the options.';
  return fallback;
}
