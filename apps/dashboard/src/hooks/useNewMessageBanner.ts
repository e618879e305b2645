import { type Message, NEW_MESSAGE_BANNER_MS, RECENT_ACTIVITY_TEXT_CUT } from '@fanpilot/contracts';
import { toast } from '@fanpilot/ui';
import { useEffect, useRef } from 'react';
import { activityLine, newFanMessages, type SeenMessages, seenMessages } from '../lib/activity.ts';
import { truncate } from '../lib/format.ts';
import { TEXT } from '../texts.ts';

/**
 * docs/product.md#shell: a 'New Message' toast for 3 seconds when a poll brings fan messages that the
 * previous poll did not have and that are newer than all it had. The first answer only sets the
 * baseline.
 */
export function useNewMessageBanner(messages: readonly Message[] | undefined): void {
  const seen = useRef<SeenMessages | null>(null);
  useEffect(() => {
    if (!messages) return;
    const previous = seen.current;
    seen.current = seenMessages(messages);
    if (!previous) return;
    const fresh = newFanMessages(previous, messages);
    const newest = fresh[0];
    if (!newest) return;
    const { label, text } = activityLine(newest);
    toast({
      title: TEXT.newMessage.title,
      description:
        fresh.length === 1
          ? `${label}: ${truncate(text, RECENT_ACTIVITY_TEXT_CUT)}`
          : TEXT.newMessage.several(fresh.length),
      duration: NEW_MESSAGE_BANNER_MS,
    });
  }, [messages]);
}
