/**
 * SPEC section 4: what sending text in a conversation does. With a pending fan message, it answers
 * the newest one (POST /api/answer); otherwise it is a direct message to the fan
 * (POST /api/send-message); with neither a pending message nor a fan id, it cannot go anywhere.
 */
export type ResponseMode =
  | { kind: 'answer'; messageId: string }
  | { kind: 'direct'; fanId: string }
  | { kind: 'no-fan-id' };
