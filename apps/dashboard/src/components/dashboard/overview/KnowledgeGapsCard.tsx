import type { KnowledgeGap } from '@fanpilot/contracts';
import { Button, toast } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { chatbotQuery, knowledgeGapsQuery, knowledgeProgressQuery } from '../../../lib/queries.ts';
import { textFieldClass } from '../../field-classes.ts';
import { InboxIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';
import { TimeAgo } from '../common/TimeAgo.tsx';
import { GAPS_TEXT } from './gaps-texts.ts';

const t = GAPS_TEXT;

interface KnowledgeGapsCardProps {
  username: string;
  chatbotId: string | undefined;
}

/**
 * "Questions your content doesn't answer": fan questions the AI could not ground in the creator's
 * knowledge, grouped by what they ask. Answering one saves it as a knowledge note (and can send it
 * to the fans who asked); dismissing sets it aside.
 */
export function KnowledgeGapsCard({ username, chatbotId }: KnowledgeGapsCardProps) {
  const gaps = useQuery(knowledgeGapsQuery(username));
  const list = gaps.data?.gaps ?? [];
  return (
    <Card title={t.heading} Icon={InboxIcon} className="xl:col-span-2">
      <p className="-mt-2 mb-4 text-sm text-slate-600">{t.lead}</p>
      {list.length === 0 ? (
        <EmptyState Icon={InboxIcon}>{t.empty}</EmptyState>
      ) : (
        <ul aria-label={t.listLabel} className="divide-y divide-slate-100">
          {list.map((gap) => (
            <GapRow key={gap.questionIds[0]} gap={gap} username={username} chatbotId={chatbotId} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** One gap, with Answer (and Insights' "Add a source": `extraAction`; `answerText`, `onDone`). */
export function GapRow({
  gap,
  username,
  chatbotId,
  answerText,
  extraAction,
  onDone,
}: {
  gap: KnowledgeGap;
  username: string;
  chatbotId: string | undefined;
  answerText?: string;
  extraAction?: ReactNode;
  onDone?: () => unknown;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [sendToFans, setSendToFans] = useState(true);
  const [invalid, setInvalid] = useState(false);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: knowledgeGapsQuery(username).queryKey }),
      queryClient.invalidateQueries({ queryKey: chatbotQuery(username).queryKey }),
      chatbotId
        ? queryClient.invalidateQueries({ queryKey: knowledgeProgressQuery(chatbotId).queryKey })
        : undefined,
      onDone?.(),
    ]);

  const answer = useMutation({
    mutationFn: () =>
      api.call('answerKnowledgeGap', {
        params: { username },
        body: { questionIds: gap.questionIds, question: gap.question, answer: text.trim(), sendToFans },
      }),
    onSuccess: (result) => {
      toast({
        title: t.saved,
        description: result.sentTo > 0 ? t.sentTo(result.sentTo) : undefined,
        variant: 'success',
      });
      setOpen(false);
      setText('');
      return refresh();
    },
    onError: (error) => toast({ title: t.saveFailed, description: serverMessage(error), variant: 'error' }),
  });
  const dismiss = useMutation({
    mutationFn: () =>
      api.call('dismissKnowledgeGap', { params: { username }, body: { questionIds: gap.questionIds } }),
    onSuccess: () => {
      toast({ title: t.dismissed, variant: 'success' });
      return refresh();
    },
    onError: (error) =>
      toast({ title: t.dismissFailed, description: serverMessage(error), variant: 'error' }),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) {
      setInvalid(true);
      return;
    }
    answer.mutate();
  };

  return (
    <li className="py-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <p className="break-words font-medium text-slate-900">{gap.question}</p>
          <p className="mt-0.5 text-xs text-slate-600">
            {t.asked(gap.count, gap.fans)} · <TimeAgo iso={gap.lastAskedAt} />
          </p>
        </div>
        {!open && (
          <div className="flex shrink-0 gap-2">
            <Button size="sm" onClick={() => setOpen(true)}>
              {answerText ?? t.answer}
            </Button>
            {extraAction}
            <Button
              size="sm"
              variant="secondary"
              disabled={dismiss.isPending}
              onClick={() => dismiss.mutate()}
            >
              {t.dismiss}
            </Button>
          </div>
        )}
      </div>
      {open && (
        <form onSubmit={submit} className="mt-3">
          <label htmlFor={`${id}-answer`} className="block text-sm font-semibold text-slate-900">
            {t.answerLabel}
          </label>
          <textarea
            id={`${id}-answer`}
            // biome-ignore lint/a11y/noAutofocus: the creator just pressed Answer to write this text
            autoFocus
            rows={4}
            value={text}
            aria-invalid={invalid || undefined}
            aria-describedby={`${id}-hint`}
            onChange={(e) => {
              setText(e.target.value);
              setInvalid(false);
            }}
            className={`mt-2 resize-y ${textFieldClass}`}
          />
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
            {invalid ? t.needText : t.answerHint}
          </p>
          <label className="mt-3 flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              checked={sendToFans}
              onChange={(e) => setSendToFans(e.target.checked)}
              className="size-4 accent-brand-600"
            />
            {t.sendToFans(gap.fans)}
          </label>
          <div className="mt-3 flex justify-end gap-3">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t.cancel}
            </Button>
            <Button type="submit" disabled={answer.isPending}>
              {answer.isPending ? t.saving : t.save}
            </Button>
          </div>
        </form>
      )}
    </li>
  );
}
