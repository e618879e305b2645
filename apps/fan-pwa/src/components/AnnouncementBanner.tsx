import { LinkifiedText } from '@fanpilot/ui/LinkifiedText';
import type { PublicCreator } from '../lib/api.ts';
import { formatMessageTime } from '../lib/format.ts';
import { texts } from '../texts.ts';

export function AnnouncementBanner({
  notice,
  onDismiss,
}: {
  notice: NonNullable<PublicCreator['notice']>;
  /** Hides this announcement; a new one shows again. */
  onDismiss?: () => void;
}) {
  return (
    <section
      aria-label={texts.announcement}
      className="relative shrink-0 border-b border-amber-200 bg-amber-50 py-2 pr-11 pl-4 text-sm text-slate-900"
    >
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={texts.dismissAnnouncement}
          className="absolute top-1.5 right-2 rounded-full p-1.5 text-slate-600 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-brand-700"
        >
          <svg
            viewBox="0 0 24 24"
            aria-hidden="true"
            className="size-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      )}
      <p className="line-clamp-3 whitespace-pre-wrap break-words">
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
