import type { ConversationsPage } from '@fanpilot/contracts';
import {
  CONVERSATION_SEARCH_MAX,
  type ConversationListFilter,
  type ConversationSummary,
  type InboxStats,
  type Message,
} from '@fanpilot/contracts';
import { Button, ConfirmDialog, toast } from '@fanpilot/ui';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type Ref, useId, useState } from 'react';
import { useDebouncedValue } from '../../../hooks/useDebouncedValue.ts';
import { usePollNewestPage } from '../../../hooks/usePollNewestPage.ts';
import { api } from '../../../lib/api.ts';

import {
  fanDisplayName,
  loadedConversations,
  mergeNewestConversations,
  waitingBadgeTone,
} from '../../../lib/inbox.ts';
import { conversationsQuery, creatorPath, fetchConversations } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { InboxIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';
import { Badge } from '../common/Badge.tsx';
import { SectionHeading } from '../SectionHeading.tsx';
import { ConversationModal } from './ConversationModal.tsx';
import { ConversationRow } from './ConversationRow.tsx';
import { RespondModal } from './RespondModal.tsx';
import { CHATS_TEXT } from './texts.ts';

/** The specified filter options; each asks the server for its own list. */
export type ConversationFilter = 'all' | 'unread' | 'answered';
const SERVER_FILTER: Record<ConversationFilter, ConversationListFilter> = {
  all: 'all',
  unread: 'waiting',
  answered: 'answered',
};

/** How long the search waits for typing to stop before asking the server. */
export const SEARCH_DEBOUNCE_MS = 300;

interface ChatManagementSectionProps {
  username: string;
  /** The server's exact counts, polled every 5 s. */
  stats: InboxStats | undefined;
  headingRef?: Ref<HTMLHeadingElement>;
  /** A fan to open at once (an alert's link, ?fan=). */
  openFanId?: string | null;
}

const t = CHATS_TEXT;

/** Chat Management: every conversation, paged by the server, filtered and searched there; exact counts. */
export function ChatManagementSection({
  username,
  stats,
  headingRef,
  openFanId,
}: ChatManagementSectionProps) {
  const filterId = useId();
  const searchId = useId();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<ConversationFilter>('all');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const params = { filter: SERVER_FILTER[filter], q };
  const list = useInfiniteQuery(conversationsQuery(username, params));
  const listKey = conversationsQuery(username, params).queryKey;
  usePollNewestPage<ConversationsPage>({
    queryKey: listKey,
    fetchNewest: () => fetchConversations(username, params, null),
    merge: mergeNewestConversations,
    enabled: list.isSuccess && !list.isPlaceholderData,
  });
  const rows = loadedConversations(list.data);

  // Opened from an alert's link: that fan's conversation (the row fills in once the list has it).
  const [openFan, setOpenFan] = useState<ConversationSummary | null>(() =>
    openFanId
      ? {
          fanId: openFanId,
          fanName: null,
          messageCount: 0,
          pendingCount: 0,
          lastActivityAt: new Date().toISOString(),
          firstSeenAt: new Date().toISOString(),
          latestFanMessage: null,
          latestReply: null,
          newestPending: null,
          subscriber: false,
          widgetSite: null,
        }
      : null,
  );
  // The open conversation follows the polls while its row is loaded; it stays open if the row leaves.
  const openRow = openFan ? (rows.find((row) => row.fanId === openFan.fanId) ?? openFan) : null;
  const [respondTo, setRespondTo] = useState<{ message: Message; fanName: string } | null>(null);
  // The conversation whose deletion is being confirmed.
  const [confirmingDelete, setConfirmingDelete] = useState<ConversationSummary | null>(null);

  const remove = useMutation({
    mutationFn: (conversation: ConversationSummary) =>
      api.call('deleteConversation', {
        params: { fanIdOrName: conversation.fanId },
        query: { creator: username },
      }),
    onSuccess: () => {
      toast({ title: t.deleted, variant: 'success' });
      return queryClient.invalidateQueries({ queryKey: creatorPath(username) });
    },
    onError: () =>
      toast({ title: t.deleteFailedTitle, description: t.deleteFailedDescription, variant: 'error' }),
  });

  const emptyText = q ? t.noFanMatches(q) : filter === 'all' ? t.empty : t.noMatches;

  return (
    <>
      <SectionHeading headingRef={headingRef} title={t.heading} lead={t.lead} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <section
          aria-labelledby={`${filterId}-heading`}
          className="min-w-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id={`${filterId}-heading`} className="sr-only">
            {t.listLabel}
          </h2>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
              <div className="flex items-center gap-2">
                <label htmlFor={filterId} className="text-sm font-semibold text-slate-900">
                  {t.filterLabel}
                </label>
                <select
                  id={filterId}
                  value={filter}
                  onChange={(event) => setFilter(event.target.value as ConversationFilter)}
                  className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
                >
                  <option value="all">{t.filters.all}</option>
                  <option value="unread">{t.filters.unread}</option>
                  <option value="answered">{t.filters.answered}</option>
                </select>
              </div>
              <div className="flex items-center gap-2">
                <label htmlFor={searchId} className="text-sm font-semibold text-slate-900">
                  {t.searchLabel}
                </label>
                <input
                  id={searchId}
                  type="search"
                  value={search}
                  maxLength={CONVERSATION_SEARCH_MAX}
                  placeholder={t.searchPlaceholder}
                  onChange={(event) => setSearch(event.target.value)}
                  className="w-40 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
                />
              </div>
            </div>
            <div className="flex flex-wrap gap-2">
              <Badge>{t.fanCount(stats?.fans ?? 0)}</Badge>
              <Badge tone={waitingBadgeTone(stats?.pendingQuestions ?? 0)}>
                {t.waiting(stats?.pendingQuestions ?? 0, stats?.waitingFans ?? 0)}
              </Badge>
            </div>
          </div>
          <p className="mt-3 text-xs text-slate-600">{t.sorted}</p>
          {list.isPending ? (
            <p role="status" className="mt-4 text-sm text-slate-600">
              {t.loading}
            </p>
          ) : list.isError && rows.length === 0 ? (
            <p role="alert" className="mt-4 text-sm text-red-700">
              {t.loadFailed}
            </p>
          ) : rows.length === 0 ? (
            <div className="mt-4">
              <EmptyState Icon={InboxIcon}>{emptyText}</EmptyState>
            </div>
          ) : (
            <>
              <ul
                aria-label={t.listLabel}
                aria-busy={list.isPlaceholderData}
                className="mt-2 divide-y divide-slate-100"
              >
                {rows.map((conversation) => (
                  <ConversationRow
                    key={conversation.fanId}
                    conversation={conversation}
                    onChat={() => setOpenFan(conversation)}
                    onRespond={() => {
                      if (conversation.newestPending) {
                        setRespondTo({
                          message: conversation.newestPending,
                          fanName: fanDisplayName(conversation.fanName),
                        });
                      }
                    }}
                    // docs/product.md#deleting-a-conversation: deleting asks the specified question first, in a confirmation dialog.
                    onDelete={() => setConfirmingDelete(conversation)}
                  />
                ))}
              </ul>
              {list.hasNextPage && (
                <div className="mt-3 flex justify-center">
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={list.isFetchingNextPage}
                    aria-busy={list.isFetchingNextPage}
                    onClick={() => list.fetchNextPage()}
                  >
                    {t.loadMore}
                  </Button>
                </div>
              )}
            </>
          )}
        </section>
        <Card title={t.summary} className="self-start">
          <dl className="space-y-3">
            {(
              [
                [t.totalFans, stats?.fans],
                [t.unanswered, stats?.waitingFans],
                [t.activeToday, stats?.activeFansToday],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="flex items-center justify-between rounded-xl bg-slate-50 px-4 py-3">
                <dt className="text-sm text-slate-600">{label}</dt>
                <dd className="text-lg font-bold text-slate-900">{value ?? 0}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
      <ConversationModal
        username={username}
        conversation={openRow}
        onOpenChange={(open) => {
          if (!open) setOpenFan(null);
        }}
      />
      <ConfirmDialog
        open={confirmingDelete !== null}
        onOpenChange={(open) => !open && setConfirmingDelete(null)}
        question={confirmingDelete ? t.confirmDelete(fanDisplayName(confirmingDelete.fanName)) : ''}
        cancelLabel={TEXT.common.cancel}
        confirmLabel={TEXT.common.delete}
        onConfirm={() => {
          if (confirmingDelete) remove.mutate(confirmingDelete);
        }}
      />
      <RespondModal
        username={username}
        question={respondTo}
        onOpenChange={(open) => !open && setRespondTo(null)}
      />
    </>
  );
}
