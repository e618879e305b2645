import { Button } from '@fanpilot/ui';
import { withoutCitationMarkers } from '@fanpilot/ui/citations';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { poorAnswersQuery } from '../../../lib/queries.ts';
import { InboxIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';
import { TimeAgo } from '../common/TimeAgo.tsx';
import { CorrectionForm } from './CorrectionForm.tsx';
import { ANSWERS_TEXT } from './texts.ts';

const t = ANSWERS_TEXT;

/** AI answers fans rated down, newest first, each with a way to correct it (docs/product.md#fans-rate-answers). */
export function PoorAnswersCard({ username }: { username: string }) {
  const poor = useQuery(poorAnswersQuery(username));
  const [correcting, setCorrecting] = useState<string | null>(null);
  const list = poor.data?.answers ?? [];
  return (
    <Card title={t.poor.heading} Icon={InboxIcon} className="xl:col-span-2">
      <p className="-mt-2 mb-4 text-sm text-slate-600">{t.poor.lead}</p>
      {list.length === 0 ? (
        <EmptyState Icon={InboxIcon}>{t.poor.empty}</EmptyState>
      ) : (
        <ul aria-label={t.poor.listLabel} className="divide-y divide-slate-100" data-testid="poor-answers">
          {list.map((a) => (
            <li key={a.answerId} className="py-3 text-sm" data-testid="poor-answer">
              <p className="font-medium text-slate-900">{t.poor.question(a.question)}</p>
              <p className="mt-0.5 line-clamp-3 text-slate-700">{withoutCitationMarkers(a.answer)}</p>
              <p className="mt-1 text-xs text-slate-600">
                {t.poor.by(a.fanName)}
                {a.comment && <> · “{a.comment}”</>} · <TimeAgo iso={a.ratedAt} />
                {a.corrected && <> · {t.poor.corrected}</>}
              </p>
              {correcting === a.answerId ? (
                <CorrectionForm
                  username={username}
                  question={a.question ?? ''}
                  messageId={a.answerId}
                  canSendToFan={Boolean(a.fanId)}
                  onDone={() => setCorrecting(null)}
                />
              ) : (
                <Button
                  size="sm"
                  variant="secondary"
                  className="mt-2"
                  onClick={() => setCorrecting(a.answerId)}
                >
                  {t.correctLabel}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
