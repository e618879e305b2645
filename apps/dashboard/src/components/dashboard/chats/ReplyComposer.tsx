import { Button } from '@fanpilot/ui';
import { type Dispatch, type FormEvent, type ReactNode, type SetStateAction, useId, useRef } from 'react';
import { textFieldClass } from '../../field-classes.ts';
import { SavedReplies } from './SavedReplies.tsx';
import { sendOnEnter } from './sendOnEnter.ts';

interface ReplyComposerProps {
  username: string;
  text: string;
  setText: Dispatch<SetStateAction<string>>;
  label: string;
  placeholder: string;
  rows: number;
  hint: ReactNode;
  pending: boolean;
  /** Called with the trimmed text; empty text and sends in flight never reach it. */
  onSend: (text: string) => void;
  dismissLabel: string;
  onDismiss: () => void;
  sendLabel: string;
  sendingLabel: string;
  /**
   * The form's id. Given, the buttons are not drawn here: the dialog draws `ReplyComposerButtons`
   * with the same id in a footer that stays in view while its body scrolls.
   */
  formId?: string;
}

type ButtonsProps = Pick<
  ReplyComposerProps,
  'pending' | 'dismissLabel' | 'onDismiss' | 'sendLabel' | 'sendingLabel'
> & { formId?: string | undefined; className?: string };

/** Close (or Cancel) and Send; Send submits the form `formId` when drawn outside it. */
export function ReplyComposerButtons(props: ButtonsProps) {
  return (
    <div className={props.className ?? 'mt-4 flex justify-end gap-3'}>
      <Button variant="secondary" onClick={props.onDismiss}>
        {props.dismissLabel}
      </Button>
      <Button type="submit" form={props.formId} disabled={props.pending}>
        {props.pending ? props.sendingLabel : props.sendLabel}
      </Button>
    </div>
  );
}

/** The reply box of both answer modals: saved replies, a textarea (Enter sends, Shift+Enter breaks), and the buttons. */
export function ReplyComposer(props: ReplyComposerProps) {
  const { text, setText, pending, onSend } = props;
  const id = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const value = text.trim();
    if (!value || pending) return;
    onSend(value);
  }

  return (
    <>
      <SavedReplies
        username={props.username}
        currentText={text}
        onInsert={(content) => {
          setText((current) => (current.trim() ? `${current}\n${content}` : content));
          textarea.current?.focus();
        }}
      />
      <form id={props.formId} onSubmit={submit}>
        <label htmlFor={`${id}-text`} className="block text-sm font-semibold text-slate-900">
          {props.label}
        </label>
        <textarea
          ref={textarea}
          id={`${id}-text`}
          // biome-ignore lint/a11y/noAutofocus: the dialog exists to write this text; Radix keeps focus inside
          autoFocus
          rows={props.rows}
          value={text}
          placeholder={props.placeholder}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={sendOnEnter(submit)}
          className={`mt-2 resize-y ${textFieldClass}`}
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {props.hint}
        </p>
        {!props.formId && <ReplyComposerButtons {...props} />}
      </form>
    </>
  );
}
