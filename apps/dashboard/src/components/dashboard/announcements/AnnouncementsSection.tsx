import type { Notice } from '@fanpilot/contracts';
import { LinkifiedText } from '@fanpilot/ui/LinkifiedText';
import { useQuery } from '@tanstack/react-query';
import type { Ref } from 'react';
import { absoluteTime } from '../../../lib/format.ts';
import { noticeHistoryQuery, noticeQuery } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { CheckIcon, MegaphoneIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';
import { Badge } from '../common/Badge.tsx';
import { TimeAgo } from '../common/TimeAgo.tsx';
import { SectionHeading } from '../SectionHeading.tsx';
import { AnnouncementComposer } from './AnnouncementComposer.tsx';
import { ANNOUNCEMENTS_TEXT } from './texts.ts';

interface AnnouncementsSectionProps {
  username: string;
  composerRef?: Ref<HTMLTextAreaElement>;
  headingRef?: Ref<HTMLHeadingElement>;
}

const t = ANNOUNCEMENTS_TEXT;

/** Announcements: the current notice, the composer and the history of sent notices. */
export function AnnouncementsSection({ username, composerRef, headingRef }: AnnouncementsSectionProps) {
  const current = useQuery(noticeQuery(username));
  const history = useQuery(noticeHistoryQuery(username));
  return (
    <>
      <SectionHeading headingRef={headingRef} title={t.heading} lead={t.lead} />
      <div className="grid gap-6 xl:grid-cols-2">
        <div className="space-y-6">
          <Card title={t.currentHeading} Icon={MegaphoneIcon}>
            {current.data ? (
              <div>
                <p className="text-sm break-words whitespace-pre-wrap text-slate-900">
                  <LinkifiedText text={current.data.message} />
                </p>
                <p className="mt-2 text-xs text-slate-600">
                  {t.sentAt(absoluteTime(current.data.timestamp))} · <TimeAgo iso={current.data.timestamp} />
                </p>
              </div>
            ) : (
              <p className="text-sm text-slate-600">
                {current.isLoading ? TEXT.common.loading : t.noCurrent}
              </p>
            )}
          </Card>
          <AnnouncementComposer textareaRef={composerRef} username={username} />
        </div>
        <Card title={t.historyHeading} Icon={MegaphoneIcon} className="self-start">
          {history.data && history.data.length > 0 ? (
            <ul aria-label={t.historyLabel} className="divide-y divide-slate-100">
              {history.data.map((notice) => (
                <HistoryEntry key={notice.id} notice={notice} />
              ))}
            </ul>
          ) : (
            <EmptyState Icon={MegaphoneIcon}>
              {history.isLoading ? TEXT.common.loading : t.historyEmpty}
            </EmptyState>
          )}
        </Card>
      </div>
    </>
  );
}

function HistoryEntry({ notice }: { notice: Notice }) {
  return (
    <li className="py-3">
      <p className="text-sm break-words whitespace-pre-wrap text-slate-900">
        <LinkifiedText text={notice.message} />
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
        <TimeAgo iso={notice.timestamp} />
        <span>{t.delivered(notice.sentCount)}</span>
        {notice.pushed && <span>{t.pushed(notice.pushedCount ?? 0)}</span>}
        <Badge tone="success">
          <CheckIcon className="mr-1 size-3.5" />
          {t.sentBadge}
        </Badge>
      </div>
    </li>
  );
}
