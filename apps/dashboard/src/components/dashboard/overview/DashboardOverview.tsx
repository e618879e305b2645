import type { CurrentUser } from '@fanpilot/contracts';
import { useQuery } from '@tanstack/react-query';
import type { Ref } from 'react';
import type { ResponseStatus } from '../../../hooks/useResponseStatus.ts';
import { chatbotQuery } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { SectionHeading } from '../SectionHeading.tsx';
import type { DashboardSection } from '../sections.ts';
import { ChatbotStatusCard } from './ChatbotStatusCard.tsx';
import { KnowledgeBaseCard } from './KnowledgeBaseCard.tsx';
import { QuickActions } from './QuickActions.tsx';
import { RecentActivityCard } from './RecentActivityCard.tsx';
import { StatCards } from './StatCards.tsx';

interface DashboardOverviewProps {
  user: CurrentUser;
  status: ResponseStatus;
  onSelect: (section: DashboardSection) => void;
  headingRef?: Ref<HTMLHeadingElement>;
}

/** The Dashboard section: stats, chatbot status, quick actions, knowledge and recent activity. */
export function DashboardOverview({ user, status, onSelect, headingRef }: DashboardOverviewProps) {
  const chatbot = useQuery(chatbotQuery(user.username));
  return (
    <>
      <SectionHeading
        ref={headingRef}
        title={TEXT.shell.sections.dashboard}
        lead={TEXT.dashboard.welcome(user.name)}
      />
      <div className="space-y-6">
        <StatCards />
        <div className="grid gap-6 xl:grid-cols-2">
          <ChatbotStatusCard chatbot={chatbot.data} failed={chatbot.isError} />
          <QuickActions
            username={user.username}
            hasChatbot={Boolean(chatbot.data)}
            status={status}
            onSelect={onSelect}
          />
          <KnowledgeBaseCard />
          <RecentActivityCard />
        </div>
      </div>
    </>
  );
}
