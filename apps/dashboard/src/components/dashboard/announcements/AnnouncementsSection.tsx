import type { Ref } from 'react';
import { TEXT } from '../../../texts.ts';
import { MegaphoneIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';
import { SectionHeading } from '../SectionHeading.tsx';
import { AnnouncementComposer } from './AnnouncementComposer.tsx';

interface AnnouncementsSectionProps {
  username: string;
  composerRef?: Ref<HTMLTextAreaElement>;
  headingRef?: Ref<HTMLHeadingElement>;
}

const t = TEXT.announcements;

/** Announcements: the composer and the history of sent notices (empty for now). */
export function AnnouncementsSection({ username, composerRef, headingRef }: AnnouncementsSectionProps) {
  return (
    <>
      <SectionHeading ref={headingRef} title={t.heading} lead={t.lead} />
      <div className="grid gap-6 xl:grid-cols-2">
        <AnnouncementComposer textareaRef={composerRef} username={username} />
        <Card title={t.historyHeading} Icon={MegaphoneIcon}>
          <EmptyState Icon={MegaphoneIcon}>{t.historyEmpty}</EmptyState>
        </Card>
      </div>
    </>
  );
}
