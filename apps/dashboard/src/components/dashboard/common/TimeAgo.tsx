import { useNow } from '../../../hooks/useNow.ts';
import { absoluteTime, relativeTime } from '../../../lib/format.ts';

/** A relative time ('Just now', '5m ago') in a <time> element carrying the exact moment. */
export function TimeAgo({ iso, className }: { iso: string; className?: string }) {
  // The shared clock re-renders every 30 s; the text itself uses the exact time of this render.
  useNow();
  const now = Date.now();
  return (
    <time dateTime={iso} title={absoluteTime(iso)} className={className}>
      {relativeTime(iso, now)}
    </time>
  );
}
