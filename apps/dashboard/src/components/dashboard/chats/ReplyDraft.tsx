import type { Message, ReplyDraft } from '@fanpilot/contracts';
import { Button, toast } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Dispatch, type SetStateAction, useEffect, useRef } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { responseStatusQuery } from '../../../lib/queries.ts';
import { DRAFT_TEXT } from './texts.ts';

const t = DRAFT_TEXT;

// Outside creatorPath: a send refreshes every creator read, and an answered question's draft is not re-asked.
const replyDraftKey = (username: string, questionId: string) => ['replyDraft', username, questionId] as const;

/**
 * The AI's draft of the reply to `question` (docs/decisions/0060-ai-drafted-replies.md), asked for
 * when the creator opens a pending question they answer themselves: while they are Online, or when
 * the AI handed the question over. An open draft is put in the empty reply box once; `draftFor` is
 * what a send passes on (the draft in use: one credit when sent), undefined once discarded.
 */
export function useReplyDraft(
  username: string,
  question: Pick<Message, 'id' | 'handedToCreator'> | null,
  setText: Dispatch<SetStateAction<string>>,
) {
  const queryClient = useQueryClient();
  const status = useQuery(responseStatusQuery(username));
  const wanted = question !== null && (status.data?.isOnline === true || question.handedToCreator === true);
  const questionId = question?.id ?? '';
  const draft = useQuery({
    queryKey: replyDraftKey(username, questionId),
    queryFn: (): Promise<ReplyDraft> =>
      api.call('replyDraft', { params: { username, messageId: questionId } }).then((r) => r.draft),
    enabled: wanted,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 10 * 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  });

  // The draft goes into the reply box once, and only into an empty one (never over the creator's words).
  const inserted = useRef<string | null>(null);
  const data = draft.data;
  useEffect(() => {
    if (data?.status !== 'open' || !data.covered || inserted.current === data.questionId) return;
    inserted.current = data.questionId;
    setText((current) => (current.trim() ? current : data.text));
  }, [data, setText]);

  const discard = useMutation({
    mutationFn: () =>
      api.call('discardReplyDraft', { params: { username, messageId: questionId } }).then((r) => r.draft),
    onSuccess: (discarded) => {
      queryClient.setQueryData(replyDraftKey(username, questionId), discarded);
      setText((current) => (current === data?.text ? '' : current));
    },
    onError: (error) =>
      toast({ title: t.discardFailed, description: serverMessage(error), variant: 'error' }),
  });

  const inUse = wanted && data?.status === 'open' && data.covered;
  return {
    wanted,
    draft,
    discard,
    /** The question whose draft a send uses, or undefined (no draft in use). */
    draftFor: inUse ? questionId : undefined,
  };
}

/** What the creator sees of the draft above the reply box: drafting, ready (with its sources), or why there is none. */
export function ReplyDraftNote({ state }: { state: ReturnType<typeof useReplyDraft> }) {
  const { wanted, draft, discard } = state;
  if (!wanted) return null;
  if (draft.isPending) {
    return (
      <p role="status" className="rounded-xl bg-indigo-50 px-4 py-3 text-sm text-indigo-900">
        {t.drafting}
      </p>
    );
  }
  if (draft.isError) {
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900"
      >
        <span>
          {t.failed} {serverMessage(draft.error)}
        </span>
        <Button size="sm" variant="secondary" onClick={() => void draft.refetch()}>
          {t.retry}
        </Button>
      </div>
    );
  }
  const data = draft.data;
  if (data?.status !== 'open') return null;
  if (!data.covered) {
    return <p className="rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-700">{t.notCovered}</p>;
  }
  return (
    <section
      aria-label={t.label}
      className="space-y-2 rounded-xl bg-indigo-50 px-4 py-3 text-sm text-indigo-950"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p>
          <span className="mr-2 rounded bg-indigo-600 px-1.5 py-0.5 text-xs font-semibold text-white">
            {t.label}
          </span>
          {t.ready}
        </p>
        <Button size="sm" variant="secondary" disabled={discard.isPending} onClick={() => discard.mutate()}>
          {t.discard}
        </Button>
      </div>
      {data.sources.length > 0 && (
        // Listed apart from the reply (never inside its text): what the creator checks it against.
        <p data-testid="draft-sources" className="text-xs text-indigo-900">
          {t.sources}: {data.sources.map((s) => s.title).join(' · ')}
        </p>
      )}
    </section>
  );
}
