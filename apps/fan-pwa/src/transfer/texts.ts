/** The texts of moving a chat to another browser (loaded with the transfer screens, not the first one). */
export const transferTexts = {
  transferHeading: 'Move this chat to another phone',
  transferIntro:
    'Open this link on your new phone, or scan the code with its camera. The link works once, for 10 minutes. Then the chat continues there and no longer opens here.',
  transferMaking: 'Making a one-time link…',
  transferFailed: 'The link could not be made. Please try again.',
  transferLinkLabel: 'One-time link',
  transferQrLabel: 'QR code of the one-time link',
  transferExpires: (time: string) => `Works until ${time}, once.`,
  copyLink: 'Copy link',
  copied: 'Copied',
  close: 'Close',
  noAccountWarning:
    'There is no account: this chat lives in this browser. If both its cookies and its stored site data are cleared, the conversation is lost for good. Move it with a link like this one first.',
  redeeming: 'Moving the chat to this browser…',
  redeemFailedHeading: 'This link did not move the chat',
  redeemFailedText: 'The link could not be used. Make a new one on the device that has the chat.',
  continueHere: 'Open the chat here',
} as const;
