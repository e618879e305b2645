import type { Correction } from '@fanpilot/contracts';
import { Button, toast } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { correctionFansQuery, correctionsQuery, creatorPath } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { ConfirmDialog } from '../../dialogs.tsx';
import { BookmarkIcon, TrashIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';
import { TimeAgo } from '../common/TimeAgo.tsx';
import { ANSWERS_TEXT } from './texts.ts';

const t = ANSWERS_TEXT.list;

/**
 * The creator's corrections (docs/product.md#corrections): each question and its right answer, the
 * fans who got a wrong answer to it (sent it with one click), and Delete.
 */
export function CorrectionsCard({ username }: { username: string }) {
  const corrections = useQuery(correctionsQuery(username));
  const [confirming, setConfirming] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => api.call('deleteCorrection', { params: { username, id } }),
    onSuccess: () => {
      toast({ title: t.deleted, variant: 'success' });
      return queryClient.invalidateQueries({ queryKey: creatorPath(username) });
    },
    onError: (error) => toast({ title: t.deleteFailed, description: serverMessage(error), variant: 'error' }),
  });
  const list = corrections.data?.corrections ?? [];
  return (
    <Card title={t.heading} Icon={BookmarkIcon} className="xl:col-span-2">
      <p className="-mt-2 mb-4 text-sm text-slate-600">{t.lead}</p>
      {list.length === 0 ? (
        <EmptyState Icon={BookmarkIcon}>{t.empty}</EmptyState>
      ) : (
        <ul aria-label={t.listLabel} className="divide-y divide-slate-100" data-testid="corrections">
          {list.map((c) => (
            <CorrectionRow
              key={c.id}
              username={username}
              correction={c}
              onDelete={() => setConfirming(c.id)}
              deleting={remove.isPending && remove.variables === c.id}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        question={t.confirmDelete}
        description={t.confirmDeleteDetail}
        cancelLabel={TEXT.common.cancel}
        confirmLabel={TEXT.common.delete}
        onConfirm={() => {
          if (confirming) remove.mutate(confirming);
        }}
      />
    </Card>
  );
}

function CorrectionRow({
  username,
  correction,
  onDelete,
  deleting,
}: {
  username: string;
  correction: Correction;
  onDelete: () => void;
  deleting: boolean;
}) {
  const [showFans, setShowFans] = useState(false);
  return (
    <li className="py-3 text-sm" data-testid="correction">
      <p className="font-medium break-words text-slate-900">{t.question(correction.question)}</p>
      <p className="mt-0.5 line-clamp-4 break-words whitespace-pre-line text-slate-700">
        {correction.answer}
      </p>
      <p className="mt-1 text-xs text-slate-600">
        {t.updated} <TimeAgo iso={correction.updatedAt} />
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={() => setShowFans((v) => !v)} aria-expanded={showFans}>
          {showFans ? t.hide : t.fans}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={onDelete}
          disabled={deleting}
          aria-label={`${t.delete}: ${correction.question}`}
        >
          <TrashIcon className="size-4" /> {t.delete}
        </Button>
      </div>
      {showFans && <CorrectionFans username={username} id={correction.id} />}
    </li>
  );
}

/** Who got a wrong answer to the correction's question, and a button that sends it to those not sent it yet. */
function CorrectionFans({ username, id }: { username: string; id: string }) {
  const fans = useQuery(correctionFansQuery(username, id));
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: () => api.call('sendCorrection', { params: { username, id } }),
    onSuccess: (result) => {
      toast({ title: t.sentTo(result.sentTo), variant: 'success' });
      return queryClient.invalidateQueries({ queryKey: creatorPath(username) });
    },
    onError: (error) => toast({ title: t.sendFailed, description: serverMessage(error), variant: 'error' }),
  });
  if (fans.isPending) return <p className="mt-2 text-xs text-slate-600">{t.fansLoading}</p>;
  if (fans.isError) return <p className="mt-2 text-xs text-red-700">{t.fansFailed}</p>;
  const list = fans.data.fans;
  if (list.length === 0) return <p className="mt-2 text-xs text-slate-600">{t.fansNone}</p>;
  const waiting = list.filter((f) => !f.sent).length;
  return (
    <div className="mt-2 rounded-xl border border-slate-200 bg-slate-50 p-3" data-testid="correction-fans">
      <ul className="space-y-1 text-xs text-slate-700">
        {list.map((f) => (
          <li key={f.fanId} className="break-words">
            {t.fanAsked(f.fanName, f.question)} · <TimeAgo iso={f.answeredAt} />
            {f.sent && <> · {t.fanSent}</>}
          </li>
        ))}
      </ul>
      {waiting > 0 && (
        <Button size="sm" className="mt-2" disabled={send.isPending} onClick={() => send.mutate()}>
          {send.isPending ? t.sending : t.send(waiting)}
        </Button>
      )}
    </div>
  );
}
