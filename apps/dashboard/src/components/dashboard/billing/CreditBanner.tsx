import { Button } from '@fanpilot/ui';
import { useQuery } from '@tanstack/react-query';
import { creditState } from '../../../lib/billing.ts';
import { usageQuery } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';

const t = TEXT.billing;

/** Above every section while credits are low or gone, with the way to buy more. */
export function CreditBanner({ username, onBuy }: { username: string; onBuy: () => void }) {
  const usage = useQuery(usageQuery(username)).data;
  if (!usage) return null;
  const state = creditState(usage.creditsRemaining);
  if (state === 'ok') return null;
  return (
    <div
      role="alert"
      className={`mb-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border px-4 py-3 text-sm ${
        state === 'out'
          ? 'border-red-300 bg-red-50 text-red-900'
          : 'border-amber-300 bg-amber-50 text-amber-900'
      }`}
    >
      <div>
        <p className="font-semibold">{state === 'out' ? t.outTitle : t.lowTitle(usage.creditsRemaining)}</p>
        <p>{state === 'out' ? t.outDetail : t.lowDetail}</p>
      </div>
      <Button size="sm" onClick={onBuy}>
        {t.buyCta}
      </Button>
    </div>
  );
}
