import { toast } from '@fanpilot/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, serverMessage } from '../../../lib/api.ts';
import { creatorPath } from '../../../lib/queries.ts';
import type { ResponseMode } from '../../../lib/response-mode.ts';
import { CONVERSATION_TEXT } from './texts.ts';

const t = CONVERSATION_TEXT;

export class NoFanIdError extends Error {
  override name = 'NoFanIdError';
}

/**
 * Sends the creator's text as docs/product.md#what-sending-does says: an answer to a pending question
 * (the answer call) or a direct message (sendMessage), with their toasts. Every
 * creator read (messages, fans, conversations) refreshes afterwards.
 */
export function useSendToFan(username: string, onSent?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ mode, text, draftFor }: { mode: ResponseMode; text: string; draftFor?: string }) => {
      // draftFor: the text was written from the AI's draft of that question (one credit when sent).
      const drafted = draftFor ? { draftFor } : {};
      if (mode.kind === 'answer') {
        return api.call('answer', {
          body: { creator: username, messageId: mode.messageId, response: text, ...drafted },
        });
      }
      if (mode.kind === 'direct') {
        return api.call('sendMessage', {
          body: { fanId: mode.fanId, message: text, creatorUsername: username, ...drafted },
        });
      }
      throw new NoFanIdError(t.noFanId);
    },
    onSuccess: (_answer, { mode }) => {
      toast({ title: mode.kind === 'answer' ? t.responseSent : t.messageSent, variant: 'success' });
      onSent?.();
      return queryClient.invalidateQueries({ queryKey: creatorPath(username) });
    },
    onError: (error, { mode }) => {
      if (error instanceof NoFanIdError) {
        toast({ title: t.noFanId, variant: 'error' });
        return;
      }
      toast({
        title: mode.kind === 'answer' ? t.responseFailed : t.messageFailed,
        description: serverMessage(error),
        variant: 'error',
      });
    },
  });
}
