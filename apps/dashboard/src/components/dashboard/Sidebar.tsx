import { buttonClasses } from '@fanpilot/ui';
import type { ResponseStatus } from '../../hooks/useResponseStatus.ts';
import { TEXT } from '../../texts.ts';
import { LogoutIcon } from '../icons.tsx';
import { ResponseStatusSwitch } from './ResponseStatusSwitch.tsx';
import { SectionNav } from './SectionNav.tsx';
import type { DashboardSection } from './sections.ts';

interface SidebarProps {
  current: DashboardSection;
  onSelect: (section: DashboardSection) => void;
  status: ResponseStatus;
}

/** The desktop sidebar: every section, the Response Status switch and the logout link. */
export function Sidebar({ current, onSelect, status }: SidebarProps) {
  return (
    <aside className="sticky top-16 hidden h-[calc(100dvh-4rem)] w-64 shrink-0 flex-col gap-6 border-r border-slate-200 bg-white p-4 desktop:flex">
      <SectionNav variant="sidebar" current={current} onSelect={onSelect} />
      <div className="mt-auto space-y-3">
        <ResponseStatusSwitch status={status} />
        <a href="/auth/logout" className={buttonClasses('ghost', 'md', 'w-full justify-start')}>
          <LogoutIcon className="size-5 text-slate-500" />
          {TEXT.shell.logout}
        </a>
      </div>
    </aside>
  );
}
