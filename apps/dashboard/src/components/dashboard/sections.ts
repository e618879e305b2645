import { TEXT } from '../../texts.ts';
import { CardIcon, ChatIcon, EarningsIcon, HomeIcon, MegaphoneIcon, UserIcon } from '../icons.tsx';
import { InsightsIcon } from './insights/InsightsIcon.tsx';

export type DashboardSection =
  | 'dashboard'
  | 'chats'
  | 'announcements'
  | 'profile'
  | 'earnings'
  | 'billing'
  | 'insights';

/** Sidebar order. Profile Settings is reachable from the desktop sidebar only (docs/product.md#shell). */
export const SECTIONS = [
  { id: 'dashboard', label: TEXT.shell.sections.dashboard, Icon: HomeIcon, onMobile: true },
  { id: 'insights', label: TEXT.shell.sections.insights, Icon: InsightsIcon, onMobile: true }, // issue 38, record 0081
  { id: 'chats', label: TEXT.shell.sections.chats, Icon: ChatIcon, onMobile: true },
  { id: 'announcements', label: TEXT.shell.sections.announcements, Icon: MegaphoneIcon, onMobile: true },
  { id: 'profile', label: TEXT.shell.sections.profile, Icon: UserIcon, onMobile: false },
  // Not in the product description: fans paying their creator (record 0043), desktop sidebar.
  { id: 'earnings', label: TEXT.shell.sections.earnings, Icon: EarningsIcon, onMobile: false },
  // Not in the product description (docs/product.md#shell): reachable from the desktop sidebar, and on phones from the low-credit notices.
  { id: 'billing', label: TEXT.shell.sections.billing, Icon: CardIcon, onMobile: false },
] as const satisfies readonly { id: DashboardSection; label: string; Icon: unknown; onMobile: boolean }[];
