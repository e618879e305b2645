import { toast } from '@fanpilot/ui';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { AnnouncementsSection } from '../components/dashboard/announcements/AnnouncementsSection.tsx';
import { BillingSection } from '../components/dashboard/billing/BillingSection.tsx';
import { CreditBanner } from '../components/dashboard/billing/CreditBanner.tsx';
import { ChatManagementSection } from '../components/dashboard/chats/ChatManagementSection.tsx';
import { DashboardHeader } from '../components/dashboard/DashboardHeader.tsx';
import { EarningsSection } from '../components/dashboard/earnings/EarningsSection.tsx';
import { DashboardOverview } from '../components/dashboard/overview/DashboardOverview.tsx';
import { ProfileSettingsSection } from '../components/dashboard/profile/ProfileSettingsSection.tsx';
import { Sidebar } from '../components/dashboard/Sidebar.tsx';
import type { DashboardSection } from '../components/dashboard/sections.ts';
import { useNewMessageBanner } from '../hooks/useNewMessageBanner.ts';
import { useResponseStatus } from '../hooks/useResponseStatus.ts';
import { useSignedInUser } from '../hooks/useSignedInUser.ts';
import { useDashboardLive } from '../lib/live.ts';
import { inboxStatsQuery, messagesQuery } from '../lib/queries.ts';
import { TEXT } from '../texts.ts';

// Insights (record 0081) loads its code, and its chart library, only when opened.
const InsightsSection = lazy(() => import('../components/dashboard/insights/InsightsSection.tsx'));

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
  // docs/product.md#the-dashboard: the local view is state, not part of the address, and starts at the dashboard.
  // Back from a checkout (?billing=paid or cancelled): the Billing section, with a word on how it went.
  // An alert's link (record 0061): ?fan=<id> opens that conversation in Chat Management, ?tab=chats the list.
  const [section, setSection] = useState<DashboardSection>(() => {
    const params = new URLSearchParams(window.location.search);
    if (params.has('billing')) return 'billing';
    if (params.has('payouts')) return 'earnings';
    if (params.get('tab') === 'insights') return 'insights';
    if (params.has('fan') || params.get('tab') === 'chats') return 'chats';
    return 'dashboard';
  });
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
  const headingRef = useRef<HTMLHeadingElement>(null);
  const composerRef = useRef<HTMLTextAreaElement>(null);
  const focusComposer = useRef(false);
  const firstRender = useRef(true);

  useEffect(() => {
    // A section change moves focus to the new heading (or the composer for Send Notice), as a page change would.
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (focusComposer.current && composerRef.current) composerRef.current.focus();
    else headingRef.current?.focus();
    focusComposer.current = false;
    window.scrollTo({ top: 0 });
  }, [section]);

  const select = (next: DashboardSection) => {
    focusComposer.current = next === 'announcements' && section === 'dashboard';
    setSection(next);
  };

  return (
    <div className="min-h-dvh bg-slate-50">
      <title>{`${TEXT.shell.sections[section]} · ${TEXT.productName}`}</title>
      <DashboardHeader user={user} current={section} onSelect={select} />
      <div className="flex">
        <Sidebar current={section} onSelect={select} status={status} />
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
          {section !== 'billing' && <CreditBanner username={user.username} onBuy={() => select('billing')} />}
          {section === 'dashboard' && (
            <DashboardOverview
              headingRef={headingRef}
              user={user}
              status={status}
              messages={messages}
              stats={stats}
              onSelect={select}
            />
          )}
          {section === 'chats' && (
            <ChatManagementSection
              headingRef={headingRef}
              username={user.username}
              stats={stats}
              openFanId={openFanId}
            />
          )}
          {section === 'announcements' && (
            <AnnouncementsSection
              headingRef={headingRef}
              composerRef={composerRef}
              username={user.username}
            />
          )}
          {section === 'profile' && <ProfileSettingsSection headingRef={headingRef} user={user} />}
          {section === 'earnings' && <EarningsSection headingRef={headingRef} username={user.username} />}
          {section === 'billing' && <BillingSection headingRef={headingRef} username={user.username} />}
          {section === 'insights' && (
            <Suspense fallback={<p role="status">{TEXT.common.loading}</p>}>
              <InsightsSection headingRef={headingRef} username={user.username} />
            </Suspense>
          )}
        </main>
      </div>
    </div>
  );
}
