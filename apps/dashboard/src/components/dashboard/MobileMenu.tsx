import { useRef, useState } from 'react';
import { TEXT } from '../../texts.ts';
import { Sheet } from '../dialogs.tsx';
import { MenuIcon } from '../icons.tsx';
import { SectionNav } from './SectionNav.tsx';
import type { DashboardSection } from './sections.ts';

interface MobileMenuProps {
  current: DashboardSection;
  onSelect: (section: DashboardSection) => void;
}

/**
 * The slide-out menu on phones: every section but Profile Settings (SPEC: desktop sidebar only), then
 * Logout (sections.ts, record 0082).
 */
export function MobileMenu({ current, onSelect }: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  // The section picked opens once the menu has closed and let go of focus, so focus can move to
  // the section's heading (not back to the menu button).
  const picked = useRef<DashboardSection | null>(null);
  return (
    <Sheet
      open={open}
      onOpenChange={setOpen}
      onCloseAutoFocus={(event) => {
        const section = picked.current;
        picked.current = null;
        if (!section || section === current) return;
        event.preventDefault();
        onSelect(section);
      }}
      title={TEXT.shell.menuTitle}
      closeLabel={TEXT.common.close}
      trigger={
        <button
          type="button"
          aria-label={TEXT.shell.openMenu}
          className="-ml-2 inline-flex size-11 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 desktop:hidden"
        >
          <MenuIcon className="size-6" />
        </button>
      }
    >
      <SectionNav
        variant="mobile"
        current={current}
        onSelect={(section) => {
          picked.current = section;
          setOpen(false);
        }}
      />
    </Sheet>
  );
}
