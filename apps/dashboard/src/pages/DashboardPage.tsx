import { toast } from '@fanpilot/ui';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { DocumentTitle } from '../components/DocumentTitle.tsx';
import { CreditBanner } from '../components/dashboard/billing/CreditBanner.tsx';
import { DashboardHeader } from '../components/dashboard/DashboardHeader.tsx';
import { Sidebar } from '../components/dashboard/Sidebar.tsx';
import { type DashboardSection, initialSection, sectionEntry } from '../components/dashboard/sections.ts';
import { useNewMessageBanner } from '../hooks/useNewMessageBanner.ts';
import { useResponseStatus } from '../hooks/useResponseStatus.ts';
import { useSignedInUser } from '../hooks/useSignedInUser.ts';
import { useDashboardLive } from '../lib/live.ts';
import { inboxStatsQuery, messagesQuery } from '../lib/queries.ts';
import { TEXT } from '../texts.ts';

/** `/dashboard/:username?` and `/admin/:username?`: the creator's dashboard shell and its sections. */
export function DashboardPage() {
  const user = useSignedInUser();
  const status = useResponseStatus(user.username);
  // Changes arrive as events; the polls below stay as the fallback.
  useDashboardLive(user.username);
  // The newest messages (Recent Activity, the toast) and the exact counts feed several sections, so
  // they are read once here, every 5 s.
  const messages = useQuery(messagesQuery(user.username)).data;
  const stats = useQuery(inboxStatsQuery(user.username)).data;
  useNewMessageBanner(messages);
  // docs/product.md#the-dashboard: the local view is state, not part of the address, and starts at
  // the dashboard unless the address names another (sections.ts: initialSection).
  const [section, setSection] = useState<DashboardSection>(() => initialSection(window.location.search));
  const [openFanId] = useState(() => new URLSearchParams(window.location.search).get('fan'));
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const outcome = params.get('billing');
    if (!outcome) return;
    toast(
      outcome === 'paid'
        ? { title: TEXT.billing.paidToast, variant: 'success' }
        : { title: TEXT.billing.cancelledToast },
    );
    params.delete('billing');
    const rest = params.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  }, []);
  // A section change moves focus to the new heading (or the composer for Send Notice), as a page
  // change would. A section's code may still be loading, so focus moves when its heading arrives.
  const focusNext = useRef<'heading' | 'composer' | null>(null);
  const headingRef = useCallback((heading: HTMLHeadingElement | null) => {
    if (heading && focusNext.current === 'heading') {
      focusNext.current = null;
      heading.focus();
    }
  }, []);
  const composerRef = useCallback((composer: HTMLTextAreaElement | null) => {
    if (composer && focusNext.current === 'composer') {
      focusNext.current = null;
      composer.focus();
    }
  }, []);

  const select = (next: DashboardSection) => {
    if (next === section) return;
    focusNext.current = next === 'announcements' && section === 'dashboard' ? 'composer' : 'heading';
    setSection(next);
    window.scrollTo({ top: 0 });
  };
  const { Component: Section, label } = sectionEntry(section);

  return (
    <div className="min-h-dvh bg-slate-50">
      <DocumentTitle text={`${label} · ${TEXT.productName}`} />
      <DashboardHeader user={user} current={section} onSelect={select} />
      <div className="flex">
        <Sidebar current={section} onSelect={select} status={status} />
        <main id="main" className="tap-targets min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
          {section !== 'billing' && <CreditBanner username={user.username} onBuy={() => select('billing')} />}
          <Suspense
            fallback={
              <p role="status" className="text-sm text-slate-600">
                {TEXT.common.loading}
              </p>
            }
          >
            <Section
              headingRef={headingRef}
              composerRef={composerRef}
              user={user}
              username={user.username}
              status={status}
              messages={messages}
              stats={stats}
              openFanId={openFanId}
              onSelect={select}
            />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
