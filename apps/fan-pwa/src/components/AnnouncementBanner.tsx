import { LinkifiedText } from '@fanpilot/ui/LinkifiedText';
import type { PublicCreator } from '../lib/api.ts';
import { formatMessageTime } from '../lib/format.ts';
import { texts } from '../texts.ts';

export function AnnouncementBanner({ notice }: { notice: NonNullable<PublicCreator['notice']> }) {
  return (
    <section
      aria-label={texts.announcement}
      className="shrink-0 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-slate-900"
    >
      <p className="line-clamp-4 whitespace-pre-wrap break-words">
        <span className="font-semibold">{texts.announcement}: </span>
        <LinkifiedText text={notice.message} linkClassName="font-medium text-brand-800 underline" />
      </p>
      {notice.timestamp && (
        <p className="mt-0.5 text-xs text-slate-600">
          <time dateTime={notice.timestamp}>{formatMessageTime(notice.timestamp)}</time>
        </p>
      )}
    </section>
  );
}
