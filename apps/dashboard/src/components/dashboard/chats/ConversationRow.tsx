import { AI_SENDER, CONVERSATION_REPLY_PREVIEW_CUT, type ConversationSummary } from '@fanpilot/contracts';
import { Button } from '@fanpilot/ui';
import { useId } from 'react';
import { truncate } from '../../../lib/format.ts';
import { fanDisplayName } from '../../../lib/inbox.ts';
import { ChatIcon, TrashIcon } from '../../icons.tsx';
import { Badge } from '../common/Badge.tsx';
import { TimeAgo } from '../common/TimeAgo.tsx';
import { WIDGET_TEXT } from '../profile/texts.ts';
import { CHATS_TEXT, CONVERSATION_TEXT } from './texts.ts';

interface ConversationRowProps {
  conversation: ConversationSummary;
  onChat: () => void;
  onRespond: () => void;
  onDelete: () => void;
}

const t = CHATS_TEXT;

/** One conversation of Chat Management, as docs/product.md#chat-management lists it. */
export function ConversationRow({ conversation, onChat, onRespond, onDelete }: ConversationRowProps) {
  const fan = conversation.latestFanMessage;
  const reply = conversation.latestReply;
  const pending = conversation.pendingCount > 0;
  const fanName = fanDisplayName(conversation.fanName);
  const initial = fanName.charAt(0).toUpperCase() || '?';
  // The product description (docs/product.md#chat-management) names the buttons 'Chat' and 'Respond': that is their accessible name. The fan's name is their
  // description, and the row (an article named after the fan) tells one row's buttons from another's.
  const nameId = useId();
  return (
    <li className="py-4">
      <article aria-label={fanName} className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-sky-500 to-brand-600 font-bold text-white"
        >
          {initial}
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h3 id={nameId} className="truncate font-semibold text-slate-900">
              {fanName}
            </h3>
            {conversation.subscriber && <Badge tone="success">{t.subscriberBadge}</Badge>}
            {pending && <Badge tone="warning">{t.pendingBadge(conversation.pendingCount)}</Badge>}
            <span className="text-xs text-slate-600">{t.messageCount(conversation.messageCount)}</span>
            {conversation.widgetSite && (
              <span title={WIDGET_TEXT.inboxSiteTitle(conversation.widgetSite)} data-testid="widget-site">
                <Badge tone="neutral">{WIDGET_TEXT.inboxSite(conversation.widgetSite)}</Badge>
              </span>
            )}
          </div>
          <p className="text-xs text-slate-600">
            {t.lastActivity} <TimeAgo iso={conversation.lastActivityAt} />
          </p>
          {fan && (
            <div className="mt-2">
              <p className="sr-only">{t.latestFan}</p>
              <p className="line-clamp-2 text-sm break-words text-slate-800">{fan.message}</p>
              {fan.status === 'pending' && (
                <p className="mt-0.5 text-xs font-semibold text-amber-800">{t.awaiting}</p>
              )}
            </div>
          )}
          {reply && (
            <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm break-words text-slate-700">
              <span className="font-semibold text-slate-900">
                {reply.from === AI_SENDER ? CONVERSATION_TEXT.aiCoach : CONVERSATION_TEXT.creator}:
              </span>{' '}
              <span className="sr-only">({t.latestReply}) </span>
              {truncate(reply.message, CONVERSATION_REPLY_PREVIEW_CUT)}
            </p>
          )}
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <Badge tone={pending ? 'warning' : 'success'}>{pending ? t.awaiting : t.complete}</Badge>
            <span className="ml-auto flex items-center gap-2">
              {pending && (
                <Button size="sm" onClick={onRespond} aria-describedby={nameId}>
                  {t.respond}
                </Button>
              )}
              <Button size="sm" variant="secondary" onClick={onChat} aria-describedby={nameId}>
                <ChatIcon className="size-4" />
                {t.chat}
              </Button>
              <button
                type="button"
                onClick={onDelete}
                aria-label={t.deleteWith(fanName)}
                title={t.deleteWith(fanName)}
                className="rounded-md p-2 text-slate-600 hover:bg-red-50 hover:text-red-700"
              >
                <TrashIcon className="size-4" />
              </button>
            </span>
          </div>
        </div>
      </article>
    </li>
  );
}
