import { ANNOUNCEMENT_MAX_LENGTH, type CurrentNoticeResponse } from '@fanpilot/contracts';
import { Button, cn, toast } from '@fanpilot/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, type Ref, useId, useState } from 'react';
import { api } from '../../../lib/api.ts';
import { noticeHistoryQuery, noticeQuery } from '../../../lib/queries.ts';
import { textFieldClass } from '../../field-classes.ts';
import { Card } from '../Card.tsx';
import { ANNOUNCEMENTS_TEXT } from './texts.ts';

const t = ANNOUNCEMENTS_TEXT;

/** Writes a notice to all fans. Enter sends; Shift+Enter adds a new line (docs/product.md#announcements). */
interface AnnouncementComposerProps {
  username: string;
  textareaRef?: Ref<HTMLTextAreaElement>;
}

export function AnnouncementComposer({ username, textareaRef }: AnnouncementComposerProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState('');
  const [push, setPush] = useState(false);
  const send = useMutation({
    mutationFn: (text: string) =>
      api.call('setNotice', {
        params: { username },
        body: { message: text, ...(push ? { push: true } : {}) },
      }),
    onSuccess: ({ notice }) => {
      setMessage('');
      toast({ title: t.sent, variant: 'success' });
      const current: CurrentNoticeResponse = { notice };
      queryClient.setQueryData(noticeQuery(username).queryKey, current);
      return queryClient.invalidateQueries({ queryKey: noticeHistoryQuery(username).queryKey });
    },
    onError: () => toast({ title: t.sendFailed, variant: 'error' }),
  });

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const text = message.trim();
    if (!text || send.isPending) return;
    send.mutate(text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Keep Enter for choosing a candidate while an input method (e.g. Korean) is composing.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  const over = message.length > ANNOUNCEMENT_MAX_LENGTH;
  return (
    <Card title={t.composerLabel}>
      <form onSubmit={submit}>
        <label htmlFor={id} className="sr-only">
          {t.composerLabel}
        </label>
        <textarea
          ref={textareaRef}
          id={id}
          rows={4}
          value={message}
          placeholder={t.placeholder}
          aria-describedby={`${id}-counter ${id}-hint`}
          onChange={(event) => setMessage(event.target.value)}
          onKeyDown={onKeyDown}
          className={`resize-y ${textFieldClass}`}
        />
        <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
          <div className="text-xs">
            <p id={`${id}-counter`} className={cn('font-medium', over ? 'text-red-700' : 'text-slate-600')}>
              {t.counter(message.length)}
            </p>
            <p id={`${id}-hint`} className="text-slate-600">
              {t.keyHint}
            </p>
            <label className="mt-2 flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                checked={push}
                onChange={(event) => setPush(event.target.checked)}
                className="size-4 accent-brand-600"
              />
              {t.pushOption}
            </label>
          </div>
          <Button type="submit" disabled={send.isPending}>
            {send.isPending ? t.sending : t.send}
          </Button>
        </div>
      </form>
    </Card>
  );
}
