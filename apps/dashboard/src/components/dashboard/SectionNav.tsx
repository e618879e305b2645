import { cn } from '@fanpilot/ui';
import { TEXT } from '../../texts.ts';
import { LogoutIcon } from '../icons.tsx';
import { type DashboardSection, SECTIONS } from './sections.ts';

interface SectionNavProps {
  current: DashboardSection;
  onSelect: (section: DashboardSection) => void;
  variant: 'sidebar' | 'mobile';
}

const itemClass = (active: boolean) =>
  cn(
    'flex min-h-11 w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-sm font-medium transition-colors',
    active ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  );

/** The list of dashboard sections; the mobile menu leaves out Profile Settings and adds Logout. */
export function SectionNav({ current, onSelect, variant }: SectionNavProps) {
  const sections = variant === 'mobile' ? SECTIONS.filter((s) => s.onMobile) : SECTIONS;
  return (
    <nav aria-label={TEXT.shell.sectionsLabel}>
      <ul className="space-y-1">
        {sections.map(({ id, label, Icon }) => (
          <li key={id}>
            <button
              type="button"
              aria-current={current === id ? 'page' : undefined}
              onClick={() => onSelect(id)}
              className={itemClass(current === id)}
            >
              <Icon className={cn('size-5', current === id ? 'text-brand-700' : 'text-slate-500')} />
              {label}
            </button>
          </li>
        ))}
        {variant === 'mobile' && (
          <li>
            <a href="/auth/logout" className={itemClass(false)}>
              <LogoutIcon className="size-5 text-slate-500" />
              {TEXT.shell.logout}
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}
