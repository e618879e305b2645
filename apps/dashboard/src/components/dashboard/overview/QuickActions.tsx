import { buttonClasses } from '@fanpilot/ui';
import type { ResponseStatus } from '../../../hooks/useResponseStatus.ts';
import { creatorLinks } from '../../../lib/destinations.ts';
import { TEXT } from '../../../texts.ts';
import { ChatIcon, ExternalIcon, MegaphoneIcon, SettingsIcon, SparkIcon, ToggleIcon } from '../../icons.tsx';
import { Card } from '../Card.tsx';
import type { DashboardSection } from '../sections.ts';

interface QuickActionsProps {
  username: string;
  hasChatbot: boolean;
  status: ResponseStatus;
  onSelect: (section: DashboardSection) => void;
  /** Opens the Chatbot Settings modal. */
  onOpenChatbotSettings: () => void;
}

const t = TEXT.dashboard.quickActions;
const actionClass = buttonClasses('secondary', 'lg', 'w-full justify-start');

export function QuickActions({
  username,
  hasChatbot,
  status,
  onSelect,
  onOpenChatbotSettings,
}: QuickActionsProps) {
  return (
    <Card title={t.heading} Icon={SparkIcon}>
      <div className="grid gap-2 sm:grid-cols-2">
        <button type="button" className={actionClass} onClick={() => onSelect('chats')}>
          <ChatIcon className="size-5 text-brand-600" />
          {t.chats}
        </button>
        <button type="button" className={actionClass} onClick={() => onSelect('announcements')}>
          <MegaphoneIcon className="size-5 text-brand-600" />
          {t.sendNotice}
        </button>
        <button type="button" className={actionClass} disabled={!hasChatbot} onClick={onOpenChatbotSettings}>
          <SettingsIcon className="size-5 text-brand-600" />
          {t.chatbotSettings}
        </button>
        <button type="button" className={actionClass} disabled={status.isToggling} onClick={status.toggle}>
          <ToggleIcon className="size-5 text-brand-600" />
          {t.toggleStatus}
        </button>
        <a
          href={creatorLinks(username).pwa}
          target="_blank"
          rel="noopener noreferrer"
          className={`${actionClass} sm:col-span-2`}
        >
          <ExternalIcon className="size-5 text-brand-600" />
          {t.openPwa}
          <span className="sr-only"> {t.opensInNewTab}</span>
        </a>
      </div>
    </Card>
  );
}
