import { Sheet } from '@fanpilot/ui';
import { useState } from 'react';
import { TEXT } from '../../texts.ts';
import { MenuIcon } from '../icons.tsx';
import { SectionNav } from './SectionNav.tsx';
import type { DashboardSection } from './sections.ts';

interface MobileMenuProps {
  current: DashboardSection;
  onSelect: (section: DashboardSection) => void;
}

/** The slide-out menu on phones: Dashboard, Chat Management, Announcements and Logout. */
export function MobileMenu({ current, onSelect }: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  return (
    <Sheet
      open={open}
      onOpenChange={setOpen}
      title={TEXT.shell.menuTitle}
      closeLabel={TEXT.common.close}
      trigger={
        <button
          type="button"
          aria-label={TEXT.shell.openMenu}
          className="-ml-2 rounded-lg p-2 text-slate-700 hover:bg-slate-100 desktop:hidden"
        >
          <MenuIcon className="size-6" />
        </button>
      }
    >
      <SectionNav
        variant="mobile"
        current={current}
        onSelect={(section) => {
          onSelect(section);
          setOpen(false);
        }}
      />
    </Sheet>
  );
}
