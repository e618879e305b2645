import { count } from '../../../texts.ts';

/** The knowledge-gaps card's words (a card under the first screen), apart from texts.ts so that they load with the card (issue 39). */
export const GAPS_TEXT = {
  heading: "Questions your content doesn't answer",
  lead: 'Fans asked these and the AI found nothing in your content. Answer once, and the AI uses your answer from then on.',
  empty: "Nothing here yet. When the AI can't find an answer in your content, the question shows up here.",
  listLabel: 'Unanswered questions',
  asked: (count: number, fans: number) =>
    `Asked ${count === 1 ? 'once' : `${count} times`}${fans > 1 ? ` by ${fans} fans` : ''}`,
  answer: 'Answer',
  dismiss: 'Dismiss',
  answerLabel: 'Your answer',
  answerHint: 'Saved to your knowledge as a Q&A note the AI answers from.',
  sendToFans: (fans: number) =>
    fans === 1 ? 'Also send it to the fan who asked' : `Also send it to the ${fans} fans who asked`,
  save: 'Save answer',
  saving: 'Saving…',
  cancel: 'Cancel',
  needText: 'Write an answer first.',
  saved: 'Answer saved to your knowledge',
  sentTo: (n: number) => `Sent to ${count(n, 'fan', 'fans')}.`,
  saveFailed: 'Failed to save the answer.',
  dismissed: 'Question dismissed',
  dismissFailed: 'Failed to dismiss the question.',
} as const;
