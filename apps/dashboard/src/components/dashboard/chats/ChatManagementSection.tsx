import { type Ref, useId, useState } from 'react';
import { TEXT } from '../../../texts.ts';
import { InboxIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';
import { SectionHeading } from '../SectionHeading.tsx';

export type ConversationFilter = 'all' | 'unread' | 'answered';

const t = TEXT.chats;

/** Chat Management: the conversation list (empty for now) and the fan summary beside it. */
export function ChatManagementSection({ headingRef }: { headingRef?: Ref<HTMLHeadingElement> }) {
  const filterId = useId();
  const [filter, setFilter] = useState<ConversationFilter>('all');
  const fans = 0;
  const waitingMessages = 0;
  const waitingFans = 0;
  return (
    <>
      <SectionHeading ref={headingRef} title={t.heading} lead={t.lead} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <section
          aria-label={t.heading}
          className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
        >
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
            <div className="flex flex-wrap gap-2 text-xs font-semibold">
              <span className="rounded-full bg-slate-100 px-2.5 py-1 text-slate-700">{t.fanCount(fans)}</span>
              <span className="rounded-full bg-amber-50 px-2.5 py-1 text-amber-800">
                {t.waiting(waitingMessages, waitingFans)}
              </span>
            </div>
          </div>
          <p className="mt-3 text-xs text-slate-600">{t.sorted}</p>
          <div className="mt-4">
            <EmptyState Icon={InboxIcon}>{t.empty}</EmptyState>
          </div>
        </section>
        <Card title={t.summary}>
          <dl className="space-y-3">
            {[
              [t.totalFans, fans],
              [t.unanswered, 0],
              [t.activeToday, 0],
            ].map(([label, value]) => (
              <div key={label} className="flex items-center justify-between rounded-xl bg-slate-50 px-4 py-3">
                <dt className="text-sm text-slate-600">{label}</dt>
                <dd className="text-lg font-bold text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </>
  );
}
