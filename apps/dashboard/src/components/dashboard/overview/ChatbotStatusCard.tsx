import type { Answerer, Chatbot, Usage } from '@fanpilot/contracts';
import { Button } from '@fanpilot/ui';
import { creditState } from '../../../lib/billing.ts';
import { TEXT } from '../../../texts.ts';
import { BotIcon } from '../../icons.tsx';
import { AnswererNote } from '../answers/AnswererNote.tsx';
import { Card } from '../Card.tsx';

interface ChatbotStatusCardProps {
  /** undefined while loading, null when the creator has no chatbot. */
  chatbot: Chatbot | null | undefined;
  /** The chatbot could not be read. */
  failed?: boolean;
  /** Opens the Create AI Chatbot modal. */
  onCreateChatbot: () => void;
  /** Credits, when read. */
  usage?: Usage | undefined;
  /** Opens the Billing section (buy credits); no button without it. */
  onBuyCredits?: (() => void) | undefined;
  /** Who really answers fans, when read. */
  answerer?: Answerer | undefined;
  /** Asks to delete the chatbot (with a confirmation); no button without it. */
  onDeleteChatbot?: (() => void) | undefined;
}

const t = TEXT.dashboard.chatbot;

export function ChatbotStatusCard({
  chatbot,
  failed,
  onCreateChatbot,
  usage,
  onBuyCredits,
  answerer,
  onDeleteChatbot,
}: ChatbotStatusCardProps) {
  const credits = usage ? creditState(usage.creditsRemaining) : 'ok';
  // Out of credits or over today's budget: the AI answers nobody until that changes.
  const paused = credits === 'out' || Boolean(usage?.aiBudgetReached);
  return (
    <Card title={t.heading} Icon={BotIcon}>
      {failed ? (
        <p className="text-sm text-slate-600">{t.unavailable}</p>
      ) : chatbot === undefined ? (
        <p className="text-sm text-slate-600" role="status">
          {TEXT.common.loading}
        </p>
      ) : chatbot ? (
        <div className="flex items-start gap-3">
          <span
            aria-hidden="true"
            className={`mt-1.5 size-2.5 shrink-0 rounded-full ${paused ? 'bg-red-500' : 'bg-emerald-500'}`}
          />
          <div>
            <p className={`font-semibold ${paused ? 'text-red-800' : 'text-emerald-800'}`}>
              {paused ? t.paused : t.active}
            </p>
            <p className="mt-0.5 text-sm text-slate-600">{t.activeDetail(chatbot.name)}</p>
            {answerer && (
              <div className="mt-2">
                <AnswererNote answerer={answerer} />
              </div>
            )}
            {usage && (
              <p className="mt-2 text-sm text-slate-700">
                {TEXT.dashboard.credits(usage.creditsRemaining)} ·{' '}
                {TEXT.dashboard.aiAnswersOfBudget(usage.aiAnswersToday, usage.dailyAiBudget)}
              </p>
            )}
            {usage && credits !== 'ok' && (
              <div
                role="status"
                className={`mt-3 rounded-lg border px-3 py-2 ${
                  credits === 'out'
                    ? 'border-red-300 bg-red-50 text-red-900'
                    : 'border-amber-300 bg-amber-50 text-amber-900'
                }`}
              >
                <p className="text-sm font-semibold">
                  {credits === 'out' ? TEXT.billing.outTitle : TEXT.billing.lowTitle(usage.creditsRemaining)}
                </p>
                <p className="mt-0.5 text-sm">
                  {credits === 'out' ? TEXT.billing.outDetail : TEXT.billing.lowDetail}
                </p>
                {onBuyCredits && (
                  <Button size="sm" className="mt-2" onClick={onBuyCredits}>
                    {TEXT.billing.buyCta}
                  </Button>
                )}
              </div>
            )}
            {usage?.aiBudgetReached && (
              <div role="status" className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2">
                <p className="text-sm font-semibold text-amber-900">{TEXT.dashboard.budgetReached}</p>
                <p className="mt-0.5 text-sm text-amber-900">
                  {TEXT.dashboard.budgetReachedDetail(usage.dailyAiBudget)}
                </p>
              </div>
            )}
            {onDeleteChatbot && (
              <Button variant="secondary" size="sm" className="mt-3" onClick={onDeleteChatbot}>
                {t.remove}
              </Button>
            )}
          </div>
        </div>
      ) : (
        <div className="flex flex-col items-start gap-3">
          <div>
            <p className="font-semibold text-slate-900">{t.none}</p>
            <p className="mt-0.5 text-sm text-slate-600">{t.noneDetail}</p>
          </div>
          <Button onClick={onCreateChatbot}>{t.create}</Button>
        </div>
      )}
    </Card>
  );
}
