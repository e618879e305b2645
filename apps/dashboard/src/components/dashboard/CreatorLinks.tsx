import { copyToClipboard } from '../../lib/clipboard.ts';
import { creatorLinks } from '../../lib/destinations.ts';
import { TEXT } from '../../texts.ts';

const copyClasses =
  'ml-2 rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/** The /admin/{username} and /pwa/{username} addresses, as links. */
export function CreatorLinks({ username }: { username: string }) {
  const links = creatorLinks(username);
  return (
    <dl className="space-y-3 text-sm">
      <div>
        <dt className="font-semibold text-slate-900">{TEXT.profile.dashboardUrl}</dt>
        <dd className="mt-0.5 break-all">
          <a href={links.admin} className="text-brand-700 underline-offset-2 hover:underline">
            {links.admin}
          </a>
          <button type="button" className={copyClasses} onClick={() => void copyToClipboard(links.admin)}>
            {TEXT.share.copyDashboardLink}
          </button>
        </dd>
      </div>
      <div>
        <dt className="font-semibold text-slate-900">{TEXT.profile.pwaUrl}</dt>
        <dd className="mt-0.5 break-all">
          <a
            href={links.pwa}
            target="_blank"
            rel="noopener noreferrer"
            className="text-brand-700 underline-offset-2 hover:underline"
          >
            {links.pwa}
            <span className="sr-only"> {TEXT.dashboard.quickActions.opensInNewTab}</span>
          </a>
          <button type="button" className={copyClasses} onClick={() => void copyToClipboard(links.pwa)}>
            {TEXT.share.copyFanLink}
          </button>
        </dd>
      </div>
    </dl>
  );
}
