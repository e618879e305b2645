import type { Message } from '@fanpilot/contracts';
import { AI_SENDER } from '@fanpilot/contracts';
import { activityLine, recentActivity } from '../../../lib/activity.ts';
import { TEXT } from '../../../texts.ts';
import { ActivityIcon, BotIcon, ChatIcon, UserIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';
import { TimeAgo } from '../common/TimeAgo.tsx';

const ICONS = { fan: UserIcon, creator: ChatIcon, [AI_SENDER]: BotIcon } as const;

/**
 * The first five messages, newest first, each with a relative time. It keeps its own height in the
 * overview's grid (`self-start`) rather than stretching beside a long knowledge list.
 */
export function RecentActivityCard({ messages }: { messages: readonly Message[] | undefined }) {
  const items = recentActivity(messages ?? []);
  return (
    <Card title={TEXT.dashboard.activity.heading} Icon={ActivityIcon} className="self-start">
      {items.length === 0 ? (
        <EmptyState Icon={ActivityIcon}>{TEXT.dashboard.activity.empty}</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100">
          {items.map((message) => {
            const { label, text } = activityLine(message);
            const Icon = ICONS[message.from] ?? ChatIcon;
            return (
              <li key={message.id} className="flex items-start gap-3 py-3">
                <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-600">
                  <Icon className="size-4" />
                </span>
                <p className="line-clamp-2 min-w-0 flex-1 text-sm break-words text-slate-800">
                  <span className="font-semibold text-slate-900">{label}</span>: {text}
                </p>
                <TimeAgo iso={message.timestamp} className="shrink-0 text-xs text-slate-600" />
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
