import { DomainError } from '../errors.ts';

/** What a browser reads when a conversation is another browser's (the fan app shows it as is). */
export const FAN_FORBIDDEN_MESSAGE =
  'This conversation belongs to another browser. Open the chat there, or move it here with a transfer link made in that browser.';

/** The refusal when a browser acts on a conversation bound to another one. */
export const notThisBrowsers = () => new DomainError('forbidden', 'forbidden', FAN_FORBIDDEN_MESSAGE);
