import type { CurrentUser, InboxStats, Message } from '@fanpilot/contracts';
import { toast } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, type Ref, Suspense, useRef, useState } from 'react';
import type { ResponseStatus } from '../../../hooks/useResponseStatus.ts';
import { api, serverMessage } from '../../../lib/api.ts';
import { firstDashboardVisit } from '../../../lib/first-visit.ts';
import { answererQuery, chatbotQuery, creatorPath, usageQuery } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { ConfirmDialog } from '../../dialogs.tsx';
import { ExternalIcon } from '../../icons.tsx';
import { WhenSeen } from '../../WhenSeen.tsx';
import { Card } from '../Card.tsx';
import { SectionHeading } from '../SectionHeading.tsx';
import type { DashboardSection } from '../sections.ts';
import { ChatbotStatusCard } from './ChatbotStatusCard.tsx';
import { KnowledgeBaseCard } from './KnowledgeBaseCard.tsx';
import { QuickActions } from './QuickActions.tsx';
import { RecentActivityCard } from './RecentActivityCard.tsx';
import { StatCards } from './StatCards.tsx';

// The cards under the first screen load when scrolled near (WhenSeen, issue 39).
const TryChatbotCard = lazy(() =>
  import('../answers/TryChatbotCard.tsx').then((m) => ({ default: m.TryChatbotCard })),
);
const KnowledgeGapsCard = lazy(() =>
  import('./KnowledgeGapsCard.tsx').then((m) => ({ default: m.KnowledgeGapsCard })),
);
const PoorAnswersCard = lazy(() =>
  import('../answers/PoorAnswersCard.tsx').then((m) => ({ default: m.PoorAnswersCard })),
);
const CreatorLinks = lazy(() => import('../CreatorLinks.tsx').then((m) => ({ default: m.CreatorLinks })));
const ShareFanLink = lazy(() => import('../ShareFanLink.tsx').then((m) => ({ default: m.ShareFanLink })));
const CorrectionsCard = lazy(() =>
  import('../answers/CorrectionsCard.tsx').then((m) => ({ default: m.CorrectionsCard })),
);

// The chatbot's modals load when first opened (record 0082): Add Knowledge brings the uploader.
const CreateChatbotModal = lazy(() =>
  import('../chatbot/CreateChatbotModal.tsx').then((m) => ({ default: m.CreateChatbotModal })),
);
const ChatbotSettingsModal = lazy(() =>
  import('../chatbot/ChatbotSettingsModal.tsx').then((m) => ({ default: m.ChatbotSettingsModal })),
);
const AddKnowledgeModal = lazy(() =>
  import('../chatbot/AddKnowledgeModal.tsx').then((m) => ({ default: m.AddKnowledgeModal })),
);

interface DashboardOverviewProps {
  user: CurrentUser;
  status: ResponseStatus;
  /** The newest messages, newest first, polled every 5 s. */
  messages: readonly Message[] | undefined;
  /** The server's exact counts, polled every 5 s. */
  stats: InboxStats | undefined;
  onSelect: (section: DashboardSection) => void;
  headingRef?: Ref<HTMLHeadingElement>;
}

type OpenModal = 'create' | 'settings' | 'knowledge' | 'delete' | null;

/** The Dashboard section: stats, chatbot status, quick actions, knowledge, recent activity and the creator's links. */
export function DashboardOverview({
  user,
  status,
  messages,
  stats,
  onSelect,
  headingRef,
}: DashboardOverviewProps) {
  const chatbot = useQuery(chatbotQuery(user.username));
  const usage = useQuery(usageQuery(user.username));
  const answerer = useQuery({ ...answererQuery(user.username), enabled: Boolean(chatbot.data) });
  const [modal, setOpenModal] = useState<OpenModal>(null);
  // A modal is rendered from its first opening on, so it keeps what it holds when closed.
  const opened = useRef(new Set<OpenModal>());
  const setModal = (which: OpenModal) => {
    opened.current.add(which);
    setOpenModal(which);
  };
  const onOpenChange = (which: Exclude<OpenModal, null>) => (open: boolean) => setModal(open ? which : null);
  // 'Welcome back' from the second visit on (issue 29); read once per page load.
  const [firstVisit] = useState(() => firstDashboardVisit(user.username));
  const queryClient = useQueryClient();
  const removeChatbot = useMutation({
    mutationFn: (id: string) => api.call('deleteChatbot', { params: { id } }),
    onSuccess: () => {
      toast({ title: TEXT.dashboard.chatbot.removed, variant: 'success' });
      queryClient.setQueryData(chatbotQuery(user.username).queryKey, null);
      return queryClient.invalidateQueries({ queryKey: creatorPath(user.username) });
    },
    onError: (error) =>
      toast({
        title: TEXT.dashboard.chatbot.removeFailedTitle,
        description: serverMessage(error) ?? TEXT.dashboard.chatbot.removeFailedDescription,
        variant: 'error',
      }),
  });

  return (
    <>
      <SectionHeading
        headingRef={headingRef}
        title={TEXT.shell.sections.dashboard}
        lead={firstVisit ? TEXT.dashboard.welcomeFirst(user.name) : TEXT.dashboard.welcome(user.name)}
      />
      <div className="space-y-6">
        <StatCards
          pendingQuestions={stats?.pendingQuestions}
          todayResponses={stats?.todayResponses}
          todayAiResponses={stats?.todayAiResponses}
        />
        <div className="grid gap-6 xl:grid-cols-2">
          <ChatbotStatusCard
            chatbot={chatbot.data}
            failed={chatbot.isError}
            usage={usage.data ?? undefined}
            answerer={answerer.data}
            onCreateChatbot={() => setModal('create')}
            onBuyCredits={() => onSelect('billing')}
            onDeleteChatbot={() => setModal('delete')}
          />
          <QuickActions
            username={user.username}
            hasChatbot={Boolean(chatbot.data)}
            status={status}
            onSelect={onSelect}
            onOpenChatbotSettings={() => setModal('settings')}
          />
          <KnowledgeBaseCard
            username={user.username}
            chatbot={chatbot.data}
            onAddKnowledge={() => setModal('knowledge')}
          />
          <RecentActivityCard messages={messages} />
          {chatbot.data && (
            <WhenSeen>
              <TryChatbotCard username={user.username} />
            </WhenSeen>
          )}
          {chatbot.data && (
            <WhenSeen>
              <KnowledgeGapsCard username={user.username} chatbotId={chatbot.data.id} />
            </WhenSeen>
          )}
          {chatbot.data && (
            <WhenSeen>
              <PoorAnswersCard username={user.username} />
            </WhenSeen>
          )}
          {chatbot.data && (
            <WhenSeen>
              <CorrectionsCard username={user.username} />
            </WhenSeen>
          )}
          {/* The product description (docs/product.md#dashboard-section): the profile modal and the dashboard show the /admin/{username} and /pwa/{username} addresses. */}
          <Card title={TEXT.profile.linksHeading} Icon={ExternalIcon} className="xl:col-span-2">
            <WhenSeen minHeight={220}>
              <div className="space-y-4">
                <CreatorLinks username={user.username} />
                <ShareFanLink username={user.username} />
              </div>
            </WhenSeen>
          </Card>
        </div>
      </div>
      <Suspense fallback={null}>
        {opened.current.has('create') && (
          <CreateChatbotModal
            username={user.username}
            open={modal === 'create'}
            onOpenChange={onOpenChange('create')}
          />
        )}
      </Suspense>
      {chatbot.data && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={modal === 'delete'}
            onOpenChange={onOpenChange('delete')}
            question={TEXT.dashboard.chatbot.confirmRemove(chatbot.data.name)}
            description={TEXT.dashboard.chatbot.confirmRemoveDetail}
            cancelLabel={TEXT.common.cancel}
            confirmLabel={TEXT.common.delete}
            onConfirm={() => {
              if (chatbot.data) removeChatbot.mutate(chatbot.data.id);
            }}
          />
          {opened.current.has('settings') && (
            <ChatbotSettingsModal
              username={user.username}
              chatbot={chatbot.data}
              open={modal === 'settings'}
              onOpenChange={onOpenChange('settings')}
            />
          )}
          {opened.current.has('knowledge') && (
            <AddKnowledgeModal
              username={user.username}
              chatbot={chatbot.data}
              open={modal === 'knowledge'}
              onOpenChange={onOpenChange('knowledge')}
            />
          )}
        </Suspense>
      )}
    </>
  );
}
