import { creatorLinks } from '../../lib/destinations.ts';
import { TEXT } from '../../texts.ts';

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
        </dd>
      </div>
    </dl>
  );
}
