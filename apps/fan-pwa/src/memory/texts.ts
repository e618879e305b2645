/** The words of the fan's memory screen (docs/product.md#memory). */
export const memoryTexts = {
  open: 'Memory',
  openHint: 'What the assistant remembers about you',
  heading: (creator: string) => `What ${creator}'s assistant remembers about you`,
  intro: (creator: string) =>
    `Facts you shared in this chat, so answers fit you. Only this chat with ${creator} uses them; delete any of them here, or write "forget everything" in the chat.`,
  loading: 'Loading…',
  failed: 'The memory could not be loaded. Please try again.',
  unavailable: (creator: string) =>
    `Memory is off for ${creator}'s chat: nothing about you is kept. (It needs an AI model, which this chat does not use.)`,
  off: 'Memory is off: nothing about you is kept.',
  empty: 'Nothing yet. Facts you share in the chat (your goal, your level, what to keep in mind) show here.',
  delete: 'Delete',
  deleteItem: (text: string) => `Delete "${text}"`,
  switchLabel: 'Remember what I share',
  switchHint: 'Turning this off deletes everything above and keeps nothing more.',
  close: 'Close',
  cleared: 'Done: the assistant forgot everything it remembered about you.',
  dropped: 'Done: the assistant will not remember that.',
} as const;
