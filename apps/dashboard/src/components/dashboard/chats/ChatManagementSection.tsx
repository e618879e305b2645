import type { Fan, Message } from '@fanpilot/contracts';
import { toast } from '@fanpilot/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Ref, useId, useMemo, useState } from 'react';
import { apiRequest } from '../../../lib/api.ts';
import {
  byTime,
  type Conversation,
  type ConversationFilter,
  conversationDeleteKey,
  conversationSummary,
  filterConversations,
  groupConversations,
  isPending,
} from '../../../lib/conversations.ts';
import { creatorPath } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { InboxIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';
import { Badge } from '../common/Badge.tsx';
import { SectionHeading } from '../SectionHeading.tsx';
import { ConversationModal } from './ConversationModal.tsx';
import { ConversationRow } from './ConversationRow.tsx';
import { RespondModal } from './RespondModal.tsx';

export type { ConversationFilter };

interface ChatManagementSectionProps {
  username: string;
  /** Newest first, polled every 5 s. */
  messages: readonly Message[] | undefined;
  fans: readonly Fan[] | undefined;
  headingRef?: Ref<HTMLHeadingElement>;
}

const t = TEXT.chats;

/** Chat Management: conversations derived from the messages, their filter and badges, and the fan summary. */
export function ChatManagementSection({ username, messages, fans, headingRef }: ChatManagementSectionProps) {
  const filterId = useId();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<ConversationFilter>('all');
  const [openKey, setOpenKey] = useState<string | null>(null);
  const [respondTo, setRespondTo] = useState<{ message: Message; fanName: string } | null>(null);

  const conversations = useMemo(() => groupConversations(messages ?? []), [messages]);
  const shown = filterConversations(conversations, filter);
  const summary = conversationSummary(conversations);
  // The open conversation follows the polls; it stays open even if it left the list meanwhile.
  const [openSnapshot, setOpenSnapshot] = useState<Conversation | null>(null);
  const openConversation = conversations.find((c) => c.key === openKey) ?? (openKey ? openSnapshot : null);

  const remove = useMutation({
    mutationFn: (conversation: Conversation) =>
      apiRequest<unknown>(
        'DELETE',
        `/api/chatlog/fan/${encodeURIComponent(conversationDeleteKey(conversation))}?creator=${encodeURIComponent(username)}`,
      ),
    onSuccess: () => {
      toast({ title: t.deleted, variant: 'success' });
      return queryClient.invalidateQueries({ queryKey: creatorPath(username) });
    },
    onError: () =>
      toast({ title: t.deleteFailedTitle, description: t.deleteFailedDescription, variant: 'error' }),
  });

  const respond = (conversation: Conversation) => {
    const newest = conversation.messages.filter(isPending).sort(byTime).at(-1);
    if (newest) setRespondTo({ message: newest, fanName: conversation.fanName });
  };

  return (
    <>
      <SectionHeading ref={headingRef} title={t.heading} lead={t.lead} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <section
          aria-labelledby={`${filterId}-heading`}
          className="min-w-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id={`${filterId}-heading`} className="sr-only">
            {t.listLabel}
          </h2>
          <div className="flex flex-wrap items-center justify-between gap-3">
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
            <div className="flex flex-wrap gap-2">
              <Badge>{t.fanCount(summary.fans)}</Badge>
              <Badge tone="warning">{t.waiting(summary.waitingMessages, summary.waitingFans)}</Badge>
            </div>
          </div>
          <p className="mt-3 text-xs text-slate-600">{t.sorted}</p>
          {shown.length === 0 ? (
            <div className="mt-4">
              <EmptyState Icon={InboxIcon}>{conversations.length === 0 ? t.empty : t.noMatches}</EmptyState>
            </div>
          ) : (
            <ul aria-label={t.listLabel} className="mt-2 divide-y divide-slate-100">
              {shown.map((conversation) => (
                <ConversationRow
                  key={conversation.key}
                  conversation={conversation}
                  onChat={() => {
                    setOpenSnapshot(conversation);
                    setOpenKey(conversation.key);
                  }}
                  onRespond={() => respond(conversation)}
                  onDelete={() => {
                    // SPEC section 5: the browser's own confirmation, with SPEC's question.
                    if (window.confirm(t.confirmDelete(conversation.fanName))) remove.mutate(conversation);
                  }}
                />
              ))}
            </ul>
          )}
        </section>
        <Card title={t.summary} className="self-start">
          <dl className="space-y-3">
            {(
              [
                [t.totalFans, fans ? fans.length : summary.fans],
                [t.unanswered, summary.unansweredChats],
                [t.activeToday, summary.activeFansToday],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="flex items-center justify-between rounded-xl bg-slate-50 px-4 py-3">
                <dt className="text-sm text-slate-600">{label}</dt>
                <dd className="text-lg font-bold text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
      <ConversationModal
        username={username}
        conversation={openConversation}
        onOpenChange={(open) => {
          if (!open) setOpenKey(null);
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
