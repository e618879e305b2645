import type { Message } from '@fanpilot/contracts';
import { Modal } from '@fanpilot/ui';
import { useId, useState } from 'react';
import { TEXT } from '../../../texts.ts';
import { ReplyComposer, ReplyComposerButtons } from './ReplyComposer.tsx';
import { ReplyDraftNote, useReplyDraft } from './ReplyDraft.tsx';
import { CONVERSATION_TEXT, RESPOND_TEXT } from './texts.ts';
import { useSendToFan } from './useSendToFan.ts';

interface RespondModalProps {
  username: string;
  /** The fan question being answered; null when closed. */
  question: { message: Message; fanName: string } | null;
  onOpenChange: (open: boolean) => void;
}

const t = RESPOND_TEXT;

/** 'Respond to Fan Question': the question, a response box, Cancel and Send Response (the answer call). */
export function RespondModal({ username, question, onOpenChange }: RespondModalProps) {
  return (
    <Modal
      open={question !== null}
      onOpenChange={onOpenChange}
      title={t.title}
      closeLabel={TEXT.common.close}
      fill
    >
      {question && (
        <RespondForm username={username} question={question} onClose={() => onOpenChange(false)} />
      )}
    </Modal>
  );
}

function RespondForm({
  username,
  question,
  onClose,
}: {
  username: string;
  question: { message: Message; fanName: string };
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const send = useSendToFan(username, onClose);
  const replyDraft = useReplyDraft(username, question.message, setText);
  const formId = useId();

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="-mx-1 min-h-0 flex-1 space-y-4 overflow-y-auto px-1 pb-1">
        <figure className="rounded-xl bg-slate-50 p-4">
          <figcaption className="text-xs font-semibold text-slate-600">
            {t.question(question.fanName)}
          </figcaption>
          <blockquote className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-900">
            {question.message.message}
          </blockquote>
        </figure>
        <ReplyDraftNote state={replyDraft} />
        <ReplyComposer
          username={username}
          text={text}
          setText={setText}
          label={t.responseLabel}
          placeholder={t.placeholder}
          rows={4}
          hint={CONVERSATION_TEXT.keyHint}
          pending={send.isPending}
          onSend={(value) =>
            send.mutate({
              mode: { kind: 'answer', messageId: question.message.id },
              text: value,
              ...(replyDraft.draftFor ? { draftFor: replyDraft.draftFor } : {}),
            })
          }
          dismissLabel={t.cancel}
          onDismiss={onClose}
          sendLabel={t.send}
          sendingLabel={t.sending}
          formId={formId}
        />
      </div>
      <ReplyComposerButtons
        formId={formId}
        className="flex shrink-0 justify-end gap-3 border-t border-slate-200 pt-4"
        pending={send.isPending}
        dismissLabel={t.cancel}
        onDismiss={onClose}
        sendLabel={t.send}
        sendingLabel={t.sending}
      />
    </div>
  );
}
