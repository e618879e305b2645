import { formatFileSize } from '@fanpilot/ui/format';
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { ATTACHMENT_ACCEPT, attachmentProblem, readAttachment } from '../lib/attachment.ts';
import type { OutboxAttachment } from '../lib/outbox.ts';
import { texts } from '../texts.ts';
import { PaperclipIcon } from './PaperclipIcon.tsx';

export interface Draft {
  text: string;
  attachment: OutboxAttachment | null;
}

const MAX_TEXTAREA_PX = 140;

export function Composer({
  onSend,
  error,
  hint = null,
  onError,
  restore,
  footer,
}: {
  /** Resolves true when the message was taken (sent or queued); the draft is then cleared. */
  onSend: (draft: Draft) => Promise<boolean>;
  error: string | null;
  /** Advice that goes with the error (e.g. when to try again), shown apart from its text. */
  hint?: string | null;
  onError: (message: string | null) => void;
  /** A message that could not be delivered comes back into an empty box. */
  restore: { text: string; nonce: number } | null;
  footer?: ReactNode;
}) {
  const [text, setText] = useState('');
  const [attachment, setAttachment] = useState<OutboxAttachment | null>(null);
  const [sending, setSending] = useState(false);
  const inFlight = useRef(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const hintId = useId();

  useEffect(() => {
    if (restore) setText((current) => (current.trim() ? current : restore.text));
  }, [restore]);

  // Grows with the text up to a few lines, then scrolls.
  useEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_TEXTAREA_PX)}px`;
  }, [text]);

  const submit = async () => {
    // Empty and in-flight sends are ignored (docs/product.md#screens).
    if (inFlight.current) return;
    if (!text.trim() && !attachment) return;
    inFlight.current = true;
    setSending(true);
    onError(null);
    try {
      const taken = await onSend({ text: text.trim(), attachment });
      if (taken) {
        setText('');
        setAttachment(null);
      }
    } finally {
      inFlight.current = false;
      setSending(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const problem = attachmentProblem(file);
    if (problem) {
      onError(problem);
      return;
    }
    try {
      setAttachment(await readAttachment(file));
      onError(null);
    } catch {
      onError(texts.attachmentUnreadable);
    }
  };

  return (
    <form onSubmit={onSubmit} className="safe-bottom shrink-0 border-t border-slate-200 bg-white px-3 pt-2">
      {footer}
      {error && (
        <p id={errorId} role="alert" className="mb-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      {error && hint && (
        <p id={hintId} data-testid="send-hint" className="-mt-1 mb-2 px-3 text-xs text-slate-700">
          {hint}
        </p>
      )}
      {attachment && (
        <div className="mb-2 flex items-center gap-2 rounded-lg bg-slate-100 px-3 py-1.5 text-sm text-slate-800">
          <PaperclipIcon size={14} />
          <span className="min-w-0 flex-1 truncate">{attachment.filename}</span>
          <span className="shrink-0 text-slate-600">{formatFileSize(attachment.size)}</span>
          <button
            type="button"
            onClick={() => setAttachment(null)}
            aria-label={texts.removeAttachment(attachment.filename)}
            className="grid size-8 shrink-0 place-items-center rounded-full text-slate-700 hover:bg-slate-200"
          >
            <span aria-hidden="true">✕</span>
          </button>
        </div>
      )}
      <div className="flex items-end gap-2">
        <input
          ref={fileInput}
          type="file"
          accept={ATTACHMENT_ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            void onFile(event.currentTarget.files?.[0]);
            event.currentTarget.value = '';
          }}
        />
        <button
          type="button"
          onClick={() => fileInput.current?.click()}
          aria-label={texts.attach}
          title={texts.attach}
          className="grid size-11 shrink-0 place-items-center rounded-full text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700"
        >
          <PaperclipIcon size={22} />
        </button>
        <label className="sr-only" htmlFor="fan-message">
          {texts.messageLabel}
        </label>
        <textarea
          id="fan-message"
          ref={textarea}
          rows={1}
          value={text}
          readOnly={sending}
          aria-busy={sending}
          aria-describedby={error ? (hint ? `${errorId} ${hintId}` : errorId) : undefined}
          placeholder={texts.messagePlaceholder}
          enterKeyHint="send"
          maxLength={4000}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          className="min-h-11 flex-1 resize-none rounded-2xl border border-slate-300 bg-white px-3.5 py-2.5 text-base leading-snug text-slate-900 placeholder:text-slate-500 focus:border-brand-700 focus:outline-2 focus:outline-brand-700"
        />
        <button
          type="submit"
          aria-label={texts.send}
          disabled={sending}
          className="grid size-11 shrink-0 place-items-center rounded-full bg-brand-700 text-white hover:bg-brand-800 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="currentColor">
            <path d="M3.4 20.4 21 12 3.4 3.6 3.4 10l12.6 2-12.6 2z" />
          </svg>
        </button>
      </div>
    </form>
  );
}
