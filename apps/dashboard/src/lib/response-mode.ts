/**
 * docs/product.md#what-sending-does: what sending text in a conversation does. With a pending fan message, it answers
 * the newest one (the answer call); otherwise it is a direct message to the fan
 * (sendMessage); with neither a pending message nor a fan id, it cannot go anywhere.
 */
export type ResponseMode =
  | { kind: 'answer'; messageId: string }
  | { kind: 'direct'; fanId: string }
  | { kind: 'no-fan-id' };
