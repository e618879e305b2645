import type { Message } from '@fanpilot/contracts';
import { byTime, isPending } from './conversations.ts';

/**
 * SPEC section 4: what sending text in a conversation does. With a pending fan message, it answers
 * the newest one (POST /api/answer); otherwise it is a direct message to the fan
 * (POST /api/send-message); with neither a pending message nor a fan id, it cannot go anywhere.
 */
export type ResponseMode =
  | { kind: 'answer'; messageId: string }
  | { kind: 'direct'; fanId: string }
  | { kind: 'no-fan-id' };

export function responseMode(conversation: {
  fanId: string | null;
  messages: readonly Message[];
}): ResponseMode {
  const newestPending = conversation.messages.filter(isPending).sort(byTime).at(-1);
  if (newestPending) return { kind: 'answer', messageId: newestPending.id };
  const fanId = conversation.fanId ?? conversation.messages.find((m) => m.fanId)?.fanId ?? null;
  if (fanId) return { kind: 'direct', fanId };
  return { kind: 'no-fan-id' };
}
