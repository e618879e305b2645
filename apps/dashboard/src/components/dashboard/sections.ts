import type { CurrentUser, InboxStats, Message } from '@fanpilot/contracts';
import { type ComponentType, type LazyExoticComponent, lazy, type Ref, type SVGProps } from 'react';
import type { ResponseStatus } from '../../hooks/useResponseStatus.ts';
import { TEXT } from '../../texts.ts';
import {
  BellIcon,
  CardIcon,
  ChatIcon,
  EarningsIcon,
  HomeIcon,
  InsightsIcon,
  MegaphoneIcon,
  UserIcon,
} from '../icons.tsx';

/** A section's id is the key of its label in TEXT.shell.sections. */
export type DashboardSection = keyof typeof TEXT.shell.sections;

/** What the dashboard shell hands every section; each takes the part it needs. */
export interface SectionProps {
  user: CurrentUser;
  username: string;
  headingRef: Ref<HTMLHeadingElement>;
  composerRef: Ref<HTMLTextAreaElement>;
  status: ResponseStatus;
  /** The newest messages and the exact counts, read once by the shell (DashboardPage). */
  messages: readonly Message[] | undefined;
  stats: InboxStats | undefined;
  /** An alert's link (?fan=<id>): the conversation Chat Management opens. */
  openFanId: string | null;
  onSelect: (section: DashboardSection) => void;
}

export interface SectionEntry {
  id: DashboardSection;
  label: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** In the phone's slide-out menu as well as the desktop sidebar. */
  onMobile: boolean;
  /** Each section's code loads when it is first opened (record 0082). */
  Component: LazyExoticComponent<ComponentType<SectionProps>>;
  /** Starts loading that code early (the section a page opens on, beside the page's own data). */
  preload: () => Promise<unknown>;
}

/** A section whose module exports its component under `name`, loaded on first use. */
function section<K extends string, M extends Record<K, ComponentType<SectionProps>>>(
  id: DashboardSection,
  Icon: SectionEntry['Icon'],
  onMobile: boolean,
  load: () => Promise<M>,
  name: K,
): SectionEntry {
  const Component = lazy(async () => ({ default: (await load())[name] }));
  return { id, label: TEXT.shell.sections[id], Icon, onMobile, Component, preload: load };
}

/**
 * The dashboard's sections, in sidebar order: one line each, the menus, titles and the page's
 * content all read from it. SPEC's four (Dashboard, Chat Management, Announcements, Profile
 * Settings), with Profile Settings on the desktop sidebar only as SPEC says; the sections added
 * after SPEC are in the phone menu as well (issue 38, record 0082).
 */
export const SECTIONS: readonly SectionEntry[] = [
  section('dashboard', HomeIcon, true, () => import('./overview/DashboardOverview.tsx'), 'DashboardOverview'),
  section(
    'chats',
    ChatIcon,
    true,
    () => import('./chats/ChatManagementSection.tsx'),
    'ChatManagementSection',
  ),
  section(
    'announcements',
    MegaphoneIcon,
    true,
    () => import('./announcements/AnnouncementsSection.tsx'),
    'AnnouncementsSection',
  ),
  section(
    'profile',
    UserIcon,
    false,
    () => import('./profile/ProfileSettingsSection.tsx'),
    'ProfileSettingsSection',
  ),
  // What fans want (issue 38, record 0081): its charts load only here.
  section('insights', InsightsIcon, true, () => import('./insights/InsightsSection.tsx'), 'InsightsSection'),
  // Fans paying their creator (record 0043).
  section('earnings', EarningsIcon, true, () => import('./earnings/EarningsSection.tsx'), 'EarningsSection'),
  section('billing', CardIcon, true, () => import('./billing/BillingSection.tsx'), 'BillingSection'),
  // Alerts and the digest (record 0061), a section of its own since record 0082.
  section(
    'notifications',
    BellIcon,
    true,
    () => import('./notifications/NotificationsSection.tsx'),
    'NotificationsSection',
  ),
];

export const sectionEntry = (id: DashboardSection): SectionEntry =>
  SECTIONS.find((entry) => entry.id === id) ?? (SECTIONS[0] as SectionEntry);

/**
 * The section a page opens on (docs/product.md#the-dashboard: the dashboard, unless the address says).
 * Back from a checkout (?billing=paid or cancelled): Billing; from payouts onboarding: Fans & Earnings;
 * an alert's link (record 0061): ?fan=<id> opens that conversation in Chat Management, ?tab=chats the list;
 * the digest's link (record 0081): ?tab=insights.
 */
export function initialSection(search: string): DashboardSection {
  const params = new URLSearchParams(search);
  if (params.has('billing')) return 'billing';
  if (params.has('payouts')) return 'earnings';
  if (params.get('tab') === 'insights') return 'insights';
  if (params.has('fan') || params.get('tab') === 'chats') return 'chats';
  return 'dashboard';
}
