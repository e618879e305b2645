import { TEXT } from '../../../texts.ts';
import { ActivityIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';

/** The first five messages, newest first; empty until messages are read. */
export function RecentActivityCard() {
  return (
    <Card title={TEXT.dashboard.activity.heading} Icon={ActivityIcon}>
      <EmptyState Icon={ActivityIcon}>{TEXT.dashboard.activity.empty}</EmptyState>
    </Card>
  );
}
