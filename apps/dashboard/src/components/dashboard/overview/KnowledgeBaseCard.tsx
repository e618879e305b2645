import type { Chatbot, KnowledgeItem, KnowledgeStatus } from '@fanpilot/contracts';
import { Button, toast } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { knowledgeLink, knowledgeSource, knowledgeTitle, progressTexts } from '../../../lib/knowledge.ts';
import { chatbotQuery, knowledgeProgressQuery } from '../../../lib/queries.ts';
import { toastWhenFree } from '../../../lib/toast-when-free.ts';
import { TEXT } from '../../../texts.ts';
import { ConfirmDialog } from '../../dialogs.tsx';
import {
  BookIcon,
  ExternalIcon,
  FileIcon,
  GlobeIcon,
  PlusIcon,
  RetryIcon,
  TrashIcon,
  VideoIcon,
} from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';
import { Badge, type BadgeTone } from '../common/Badge.tsx';

interface KnowledgeBaseCardProps {
  username: string;
  /** undefined while loading, null when the creator has no chatbot. */
  chatbot: Chatbot | null | undefined;
  onAddKnowledge: () => void;
}

const t = TEXT.knowledge;

const STATUS_TONE: Record<KnowledgeStatus, BadgeTone> = {
  pending: 'warning',
  processing: 'info',
  completed: 'success',
  active: 'success',
  failed: 'danger',
};

const TYPE_ICON = { youtube: VideoIcon, url: GlobeIcon, file: FileIcon } as const;

const FAILURE_TITLE = {
  url: TEXT.addKnowledge.urlFailed,
  youtube: TEXT.addKnowledge.youtubeFailed,
  file: TEXT.addKnowledge.uploadFailed,
} as const;

/** The chatbot's knowledge: Add Knowledge, the processing progress (polled every 5 s) and the items. */
export function KnowledgeBaseCard({ username, chatbot, onAddKnowledge }: KnowledgeBaseCardProps) {
  const queryClient = useQueryClient();
  const progress = useQuery({ ...knowledgeProgressQuery(chatbot?.id ?? ''), enabled: Boolean(chatbot) });
  const items = progress.data?.items ?? chatbot?.knowledge ?? [];

  useOutcomeToasts(items);
  // The item whose deletion is being confirmed.
  const [confirming, setConfirming] = useState<string | null>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: knowledgeProgressQuery(chatbot?.id ?? '').queryKey }),
      queryClient.invalidateQueries({ queryKey: chatbotQuery(username).queryKey }),
    ]);

  const remove = useMutation({
    mutationFn: (id: string) => api.call('deleteKnowledge', { params: { id } }),
    onSuccess: () => {
      toast({ title: t.deleted, variant: 'success' });
      return refresh();
    },
    onError: () => toast({ title: t.deleteFailed, variant: 'error' }),
  });
  const retry = useMutation({
    mutationFn: (id: string) => api.call('retryKnowledge', { params: { id } }),
    onSuccess: () => {
      toast({ title: t.retryStarted, variant: 'success' });
      return refresh();
    },
    onError: (error) =>
      toast({
        title: t.retryFailed,
        description: serverMessage(error) ?? TEXT.addKnowledge.uploadRetryHint,
        variant: 'error',
      }),
  });

  const resync = useMutation({
    mutationFn: (id: string) => api.call('resyncKnowledge', { params: { id } }),
    onSuccess: () => {
      toast({ title: t.resyncStarted, variant: 'success' });
      return refresh();
    },
    onError: (error) => toast({ title: t.resyncFailed, description: serverMessage(error), variant: 'error' }),
  });

  const downloads = useMutation({
    mutationFn: ({ id, allowed }: { id: string; allowed: boolean }) =>
      api.call('updateKnowledge', { params: { id }, body: { fansMayDownload: allowed } }),
    onSuccess: (_item, { allowed }) => {
      toast({ title: allowed ? t.downloadsOn : t.downloadsOff, variant: 'success' });
      return refresh();
    },
    onError: (error) =>
      toast({ title: t.downloadsFailed, description: serverMessage(error), variant: 'error' }),
  });

  const summary = progress.data;
  const texts = summary && summary.total > 0 ? progressTexts(summary) : null;

  return (
    <Card
      title={TEXT.dashboard.knowledge.heading}
      Icon={BookIcon}
      action={
        <Button size="sm" onClick={onAddKnowledge} disabled={!chatbot}>
          <PlusIcon className="size-4" />
          {TEXT.dashboard.knowledge.add}
        </Button>
      }
    >
      {texts && (
        <div className="mb-4">
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="font-medium text-slate-800">{texts.readyText}</span>
            <span className="flex items-center gap-2">
              <span className="font-semibold text-slate-900">{texts.percentageText}</span>
              <Badge tone={texts.tone}>{texts.badgeText}</Badge>
            </span>
          </div>
          <div
            role="progressbar"
            aria-label={t.progressLabel}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={texts.percentage}
            aria-valuetext={`${texts.percentageText}, ${texts.readyText}`}
            className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100"
          >
            <div
              className="h-full rounded-full bg-brand-600 transition-[width] duration-500 motion-reduce:transition-none"
              style={{ width: `${texts.percentage}%` }}
            />
          </div>
        </div>
      )}
      {items.length === 0 ? (
        <EmptyState Icon={BookIcon} note={chatbot === null ? t.noChatbot : undefined}>
          {t.emptyText}
        </EmptyState>
      ) : (
        <ul aria-label={t.listLabel} className="divide-y divide-slate-100">
          {items.map((item) => (
            <KnowledgeRow
              key={item.id}
              item={item}
              // docs/product.md#item-actions: deleting asks the specified question first, in a confirmation dialog.
              onDelete={() => setConfirming(item.id)}
              onRetry={() => retry.mutate(item.id)}
              retrying={retry.isPending && retry.variables === item.id}
              onResync={() => resync.mutate(item.id)}
              resyncing={resync.isPending && resync.variables === item.id}
              onDownloadsChange={(allowed) => downloads.mutate({ id: item.id, allowed })}
              changingDownloads={downloads.isPending && downloads.variables?.id === item.id}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        question={t.confirmDelete}
        cancelLabel={TEXT.common.cancel}
        confirmLabel={TEXT.common.delete}
        onConfirm={() => {
          if (confirming) remove.mutate(confirming);
        }}
      />
    </Card>
  );
}

function KnowledgeRow({
  item,
  onDelete,
  onRetry,
  retrying,
  onResync,
  resyncing,
  onDownloadsChange,
  changingDownloads,
}: {
  item: KnowledgeItem;
  onDelete: () => void;
  onRetry: () => void;
  retrying: boolean;
  /** Fetch a page or video again (unchanged content is kept as it is). */
  onResync: () => void;
  resyncing: boolean;
  /** Lets fans who were cited this file download it whole, or stops it. */
  onDownloadsChange: (allowed: boolean) => void;
  changingDownloads: boolean;
}) {
  const canResync = item.type !== 'file' && (item.status === 'completed' || item.status === 'active');
  const title = knowledgeTitle(item);
  const source = knowledgeSource(item);
  const link = knowledgeLink(item);
  const TypeIcon = TYPE_ICON[item.type] ?? FileIcon;
  return (
    <li className="flex items-start gap-3 py-3">
      <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-600">
        <TypeIcon className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold text-slate-900">{title}</p>
        {source && source !== title && <p className="truncate text-xs text-slate-600">{source}</p>}
        <div className="mt-1.5 flex flex-wrap items-center gap-1.5">
          <Badge tone="brand">{t.types[item.type] ?? t.titles.unknown}</Badge>
          <Badge tone={STATUS_TONE[item.status] ?? 'neutral'}>{t.statuses[item.status] ?? item.status}</Badge>
        </div>
        {item.type === 'file' && (
          <label className="mt-2 flex items-center gap-2 text-xs text-slate-700">
            <input
              type="checkbox"
              checked={item.fansMayDownload === true}
              disabled={changingDownloads}
              onChange={(e) => onDownloadsChange(e.target.checked)}
              className="size-4 accent-brand-600"
            />
            {t.fansMayDownload}
          </label>
        )}
        {item.status === 'failed' && (
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <p className="text-xs text-red-800">{item.error || t.failedFallback}</p>
            {/* Failed for good (network rules, not found, robots.txt): trying again cannot help. */}
            {!item.failedForGood && (
              <Button
                size="sm"
                variant="secondary"
                onClick={onRetry}
                disabled={retrying}
                aria-label={t.retryLabel(title)}
              >
                <RetryIcon className="size-4" />
                {t.retry}
              </Button>
            )}
          </div>
        )}
      </div>
      <div className="flex shrink-0 items-center gap-1">
        {canResync && (
          <button
            type="button"
            onClick={onResync}
            disabled={resyncing}
            aria-label={t.resyncLabel(title)}
            title={t.resyncLabel(title)}
            className="rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:opacity-50"
          >
            <RetryIcon className="size-4" />
          </button>
        )}
        {link && (
          <a
            href={link}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t.open(title)}
            title={t.open(title)}
            className="rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
          >
            <ExternalIcon className="size-4" />
          </a>
        )}
        <button
          type="button"
          onClick={onDelete}
          aria-label={t.delete(title)}
          title={t.delete(title)}
          className="rounded-md p-2 text-slate-600 hover:bg-red-50 hover:text-red-700"
        >
          <TrashIcon className="size-4" />
        </button>
      </div>
    </li>
  );
}

/** docs/product.md#processing: processing runs in the background; completion and failure are reported by toast. */
function useOutcomeToasts(items: readonly KnowledgeItem[]) {
  const previous = useRef<Map<string, KnowledgeStatus> | null>(null);
  useEffect(() => {
    const before = previous.current;
    previous.current = new Map(items.map((item) => [item.id, item.status]));
    if (!before) return;
    const failed = items.find((item) => {
      const was = before.get(item.id);
      return item.status === 'failed' && (was === 'pending' || was === 'processing');
    });
    if (failed) {
      toast({
        title: FAILURE_TITLE[failed.type] ?? TEXT.addKnowledge.uploadFailed,
        description: failed.error || TEXT.addKnowledge.retryHint,
        variant: 'error',
      });
      return;
    }
    const done = items.find((item) => {
      const was = before.get(item.id);
      return (
        (item.status === 'completed' || item.status === 'active') &&
        (was === 'pending' || was === 'processing')
      );
    });
    if (done) toastWhenFree({ title: t.sourceReady(knowledgeTitle(done)), variant: 'success' });
  }, [items]);
}
