import type { Message } from '@fanpilot/contracts';
import { Button, Modal } from '@fanpilot/ui';
import { type FormEvent, useId, useRef, useState } from 'react';
import { TEXT } from '../../../texts.ts';
import { textFieldClass } from '../../field-classes.ts';
import { SavedReplies } from './SavedReplies.tsx';
import { sendOnEnter } from './sendOnEnter.ts';
import { useSendToFan } from './useSendToFan.ts';

interface RespondModalProps {
  username: string;
  /** The fan question being answered; null when closed. */
  question: { message: Message; fanName: string } | null;
  onOpenChange: (open: boolean) => void;
}

const t = TEXT.respond;

/** 'Respond to Fan Question': the question, a response box, Cancel and Send Response (POST /api/answer). */
export function RespondModal({ username, question, onOpenChange }: RespondModalProps) {
  return (
    <Modal
      open={question !== null}
      onOpenChange={onOpenChange}
      title={t.title}
      closeLabel={TEXT.common.close}
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
  const id = useId();
  const [text, setText] = useState('');
  const textarea = useRef<HTMLTextAreaElement>(null);
  const send = useSendToFan(username, onClose);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const value = text.trim();
    if (!value || send.isPending) return;
    send.mutate({ mode: { kind: 'answer', messageId: question.message.id }, text: value });
  }

  return (
    <div className="space-y-4">
      <figure className="rounded-xl bg-slate-50 p-4">
        <figcaption className="text-xs font-semibold text-slate-600">
          {t.question(question.fanName)}
        </figcaption>
        <blockquote className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-900">
          {question.message.message}
        </blockquote>
      </figure>
      <SavedReplies
        username={username}
        currentText={text}
        onInsert={(content) => {
          setText((current) => (current.trim() ? `${current}\n${content}` : content));
          textarea.current?.focus();
        }}
      />
      <form onSubmit={submit}>
        <label htmlFor={`${id}-text`} className="block text-sm font-semibold text-slate-900">
          {t.responseLabel}
        </label>
        <textarea
          ref={textarea}
          id={`${id}-text`}
          // biome-ignore lint/a11y/noAutofocus: the dialog exists to write this text; Radix keeps focus inside
          autoFocus
          rows={4}
          value={text}
          placeholder={t.placeholder}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={sendOnEnter(submit)}
          className={`mt-2 resize-y ${textFieldClass}`}
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {TEXT.conversation.keyHint}
        </p>
        <div className="mt-4 flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button type="submit" disabled={send.isPending}>
            {send.isPending ? t.sending : t.send}
          </Button>
        </div>
      </form>
    </div>
  );
}
