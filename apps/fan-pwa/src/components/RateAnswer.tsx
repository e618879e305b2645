import { useId, useState } from 'react';
import type { FanChatMessage } from '../lib/api.ts';
import { texts } from '../texts.ts';

type Rating = NonNullable<FanChatMessage['rating']>;

const thumb =
  'rounded-full border px-2 py-0.5 text-xs focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700';

/** A thumb (up, or turned down), drawn here: emoji fonts are not everywhere. */
function Thumb({ down = false }: { down?: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      width="14"
      height="14"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      style={down ? { transform: 'rotate(180deg)' } : undefined}
    >
      <path d="M7 10v12" />
      <path d="M15 5.9 14 10h5.8a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.4 22H7V10l4-8a3 3 0 0 1 3 3.9Z" />
    </svg>
  );
}

/**
 * Thumbs up or down on an AI answer, with an optional comment after a thumbs down
 * (docs/product.md#fans-rate-answers). One rating per answer: a second tap changes it.
 */
export function RateAnswer({
  initial,
  onRate,
}: {
  initial: Rating | undefined;
  onRate: (body: { rating: 'up' | 'down' | null; comment?: string }) => Promise<unknown>;
}) {
  const [rating, setRating] = useState<'up' | 'down' | null>(initial?.rating ?? null);
  const [comment, setComment] = useState(initial?.comment ?? '');
  const [asking, setAsking] = useState(false);
  const [status, setStatus] = useState<'idle' | 'saved' | 'failed'>('idle');
  const commentId = useId();

  const save = async (next: 'up' | 'down' | null, text?: string) => {
    const before = rating;
    setRating(next);
    try {
      await onRate({ rating: next, ...(text !== undefined ? { comment: text } : {}) });
      setStatus('saved');
    } catch {
      setRating(before);
      setStatus('failed');
    }
  };

  return (
    <div className="mt-1 flex max-w-[85%] flex-col gap-1">
      <div className="flex items-center gap-1.5">
        <button
          type="button"
          aria-pressed={rating === 'up'}
          aria-label={texts.rateUp}
          data-testid="rate-up"
          onClick={() => {
            setAsking(false);
            void save(rating === 'up' ? null : 'up');
          }}
          className={`${thumb} ${rating === 'up' ? 'border-emerald-600 bg-emerald-50 text-emerald-800' : 'border-slate-200 bg-white text-slate-600'}`}
        >
          <Thumb />
        </button>
        <button
          type="button"
          aria-pressed={rating === 'down'}
          aria-label={texts.rateDown}
          data-testid="rate-down"
          onClick={() => {
            if (rating === 'down') {
              setAsking(false);
              void save(null);
            } else {
              setAsking(true);
              void save('down');
            }
          }}
          className={`${thumb} ${rating === 'down' ? 'border-red-600 bg-red-50 text-red-800' : 'border-slate-200 bg-white text-slate-600'}`}
        >
          <Thumb down />
        </button>
        {status === 'saved' && !asking && rating && (
          <span role="status" className="text-[11px] text-slate-600">
            {texts.rateThanks}
          </span>
        )}
        {status === 'failed' && (
          <span role="alert" className="text-[11px] text-red-700">
            {texts.rateFailed}
          </span>
        )}
      </div>
      {asking && rating === 'down' && (
        <form
          className="flex items-center gap-1.5"
          onSubmit={(event) => {
            event.preventDefault();
            setAsking(false);
            void save('down', comment);
          }}
        >
          <label className="sr-only" htmlFor={commentId}>
            {texts.rateCommentLabel}
          </label>
          <input
            id={commentId}
            data-testid="rate-comment"
            maxLength={500}
            value={comment}
            placeholder={texts.rateCommentLabel}
            onChange={(event) => setComment(event.target.value)}
            className="min-w-0 flex-1 rounded-lg border border-slate-300 px-2 py-1 text-xs"
          />
          <button
            type="submit"
            data-testid="rate-comment-send"
            className="rounded-lg bg-brand-700 px-2 py-1 text-xs font-medium text-white"
          >
            {texts.rateCommentSend}
          </button>
        </form>
      )}
    </div>
  );
}
