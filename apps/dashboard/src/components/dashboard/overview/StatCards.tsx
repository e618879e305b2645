import { TEXT } from '../../../texts.ts';
import { ActivityIcon, BotIcon, ChatIcon, ClockIcon } from '../../icons.tsx';

interface StatCardsProps {
  pendingQuestions?: number | undefined;
  todayResponses?: number | undefined;
  todayAiResponses?: number | undefined;
}

const t = TEXT.dashboard.stats;

/** Four numbers at the top of the dashboard; 0 until the data behind them arrives. */
export function StatCards({
  pendingQuestions = 0,
  todayResponses = 0,
  todayAiResponses = 0,
}: StatCardsProps) {
  const stats = [
    {
      label: t.pending,
      value: String(pendingQuestions),
      Icon: ClockIcon,
      tone: 'bg-amber-50 text-amber-700',
    },
    {
      label: t.todayResponses,
      value: String(todayResponses),
      Icon: ChatIcon,
      tone: 'bg-sky-50 text-sky-700',
    },
    {
      label: t.todayAiResponses,
      value: String(todayAiResponses),
      Icon: BotIcon,
      tone: 'bg-brand-50 text-brand-700',
    },
    {
      label: t.responseRate,
      value: t.responseRateValue,
      Icon: ActivityIcon,
      tone: 'bg-emerald-50 text-emerald-700',
    },
  ];
  return (
    <section aria-label={t.label}>
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4 lg:gap-4">
        {stats.map(({ label, value, Icon, tone }) => (
          <li key={label} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <span className={`flex size-9 items-center justify-center rounded-lg ${tone}`}>
              <Icon className="size-5" />
            </span>
            <p className="mt-3 text-2xl font-bold text-slate-900">{value}</p>
            <p className="text-sm text-slate-600">{label}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
