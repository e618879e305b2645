import type { KeyboardEvent } from 'react';

/**
 * Enter sends, Shift+Enter adds a new line. Enter that confirms an input method's candidate
 * (e.g. while typing Korean) is left to the input method.
 */
export function sendOnEnter(send: () => void) {
  return (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
}
