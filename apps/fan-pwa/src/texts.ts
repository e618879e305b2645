/** Every text the fan reads, in one place. The specified texts are kept word for word. */
export const texts = {
  appTitle: 'Fan chat',
  chatTitle: (name: string) => `Chat with ${name}`,
  online: 'Online',
  loading: 'Loading chat…',

  notFoundHeading: '404 Page Not Found',
  notFoundText: 'Did you forget to add the page to the router?',
  creatorNotFoundHeading: 'This creator could not be found',
  creatorNotFoundText: 'Check the link you were given. The creator may have changed it or closed their chat.',
  noCreatorHeading: 'No creator chosen',
  noCreatorText: 'Open this chat from a creator’s link, or add ?creator=their-username to the address.',
  offlineHeading: 'You’re offline',
  offlineText: 'This chat has not been opened on this device before. Connect to the internet to load it.',
  loadFailedHeading: 'The chat could not be loaded',
  loadFailedText: 'Something went wrong on our side. Please try again in a moment.',
  retry: 'Try again',

  announcement: 'Announcement',
  conversation: 'Conversation',
  emptyConversation: (name: string) => `Say hello to ${name}. Your messages and the answers appear here.`,
  you: 'You',
  /** Under a question the AI gave up on (the model kept failing): the creator has it now. */
  willAnswerPersonally: (name: string) => `${name} will answer personally.`,
  aiLabel: 'AI Coach',
  sources: 'Sources',
  sourceMarker: (n: number, title: string) => `Source ${n}: ${title}`,
  rateUp: 'Helpful answer',
  rateDown: 'Not helpful',
  rateCommentLabel: 'What was wrong? (optional)',
  rateCommentSend: 'Send',
  rateThanks: 'Thanks for your feedback.',
  rateFailed: 'Your rating could not be saved. Please try again.',
  citationPage: (page: number) => `p. ${page}`,
  aiLabelLong: (name: string) => `AI Coach for ${name}`,
  attachment: 'Attachment',
  waitingForConnection: 'Waiting for connection. It will be sent when you’re back online.',
  sending: 'Sending…',
  offlineBanner: 'You’re offline. Messages you send now go out when the connection returns.',

  messageLabel: 'Message',
  messagePlaceholder: 'Type your message…',
  send: 'Send message',
  attach: 'Attach a photo or PDF',
  removeAttachment: (name: string) => `Remove attachment ${name}`,
  sendFailed: 'Message failed to send. Please try again.',
  rateLimited: (seconds: number | null) =>
    seconds
      ? `You’re sending messages quickly. Try again in ${seconds} s.`
      : 'You’re sending messages quickly.',
  attachmentTooLarge: (mb: number) => `That file is larger than ${mb} MB. Choose a smaller photo or PDF.`,
  attachmentWrongType: 'Only photos and PDF files can be attached.',
  attachmentUnreadable: 'That file could not be read. Please choose it again.',

  chattingAs: (name: string) => (name ? `Chatting as ${name}` : 'Chatting as a guest'),
  addName: 'Add your name',
  changeName: 'Change name',
  nameLabel: 'Your name (optional)',
  saveName: 'Save',
  cancel: 'Cancel',

  moveChat: 'Move chat',
  /** The website widget's way out to the fan app (a transfer link opened in a new tab). */
  /** The browser extension (docs/extension.md): follow this creator in its side panel. */
  addToBrowser: 'Add to browser',
  addedToBrowser: 'Added to browser',
  addToBrowserFailed: 'Try again',
  addToBrowserHint: 'Chat with this creator from the Fanpilot extension’s side panel',
  /** Under an AI answer that is still being written (streamed). */
  aiWriting: 'Writing…',
  continueInApp: 'Continue in the app',
  continueInAppHint: 'Open this chat in the Fanpilot app, in a new tab',
  widgetOnlyHeading: 'This chat opens on the creator’s website',
  widgetOnlyText: 'Open it from the chat button on the creator’s site, or from their Fanpilot link.',
  continueInAppFailed: 'The chat could not be opened in the app. Please try again.',
  dismissAnnouncement: 'Dismiss announcement',
  aboutCreator: (name: string) => `About ${name}`,
  chatbotIntro: (chatbot: string, creator: string) => `${chatbot} · ${creator}'s AI assistant`,
  moveChatHint: 'Move this chat to another phone or browser',
  otherBrowsersChat:
    'This chat is held by another browser: it was moved away with a transfer link, or this browser’s cookies were cleared. Open it on the device that has it (and move it here with a link from there), or start a new chat.',
  startNewChat: 'Start a new chat',

  install: 'Install app',
  installHint: 'Add this chat to your home screen',
  creatorPhoto: (name: string) => `Photo of ${name}`,
} as const;
