import { ANNOUNCEMENT_MAX_LENGTH } from '@fanpilot/contracts';
import { count } from '../../../texts.ts';

/** The Announcements section's words, apart from texts.ts so that they load with the section (issue 39). */
export const ANNOUNCEMENTS_TEXT = {
  heading: 'Announcements',
  lead: 'Send a notice to all of your fans at once.',
  composerLabel: 'New announcement',
  placeholder: 'Write a message to all your fans…',
  counter: (n: number) => `${n}/${ANNOUNCEMENT_MAX_LENGTH} characters`,
  keyHint: 'Enter sends; Shift+Enter adds a new line.',
  send: 'Send Notice',
  sending: 'Sending…',
  sent: 'Notice sent successfully.',
  sendFailed: 'Failed to send notice.',
  historyHeading: 'Announcement history',
  historyEmpty: 'No announcement history',
  currentHeading: 'Current announcement',
  noCurrent: 'You have not sent an announcement yet.',
  sentAt: (time: string) => `Sent ${time}`,
  delivered: (n: number) => `Delivered to ${count(n, 'fan', 'fans')}`,
  pushOption: 'Also send as a notification to fans who turned them on',
  pushed: (n: number) => `Pushed to ${count(n, 'device', 'devices')}`,
  sentBadge: 'Sent',
  historyLabel: 'Sent announcements',
} as const;
