import type { CurrentUser } from '@fanpilot/contracts';
import { lazy, Suspense, useState } from 'react';
import { TEXT } from '../../texts.ts';
import { Logo } from '../Logo.tsx';
import { MobileMenu } from './MobileMenu.tsx';
import { ProfileAvatar } from './ProfileAvatar.tsx';
import type { DashboardSection } from './sections.ts';

interface DashboardHeaderProps {
  user: CurrentUser;
  current: DashboardSection;
  onSelect: (section: DashboardSection) => void;
}

// The profile modal (the creator's addresses) loads when first opened (issue 39).
const ProfileModal = lazy(() => import('./ProfileModal.tsx').then((m) => ({ default: m.ProfileModal })));

export function DashboardHeader({ user, current, onSelect }: DashboardHeaderProps) {
  const [profileOpen, setProfileOpen] = useState(false);
  const [profileOpened, setProfileOpened] = useState(false);
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="flex h-16 items-center gap-3 px-4 sm:px-6">
        <MobileMenu current={current} onSelect={onSelect} />
        <Logo />
        <div className="ml-auto flex items-center gap-3">
          <p className="inline-flex items-center gap-2 rounded-full bg-emerald-50 px-3 py-1 text-xs font-semibold whitespace-nowrap text-emerald-800">
            <span aria-hidden="true" className="relative flex size-2">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-75 motion-reduce:animate-none" />
              <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
            </span>
            {TEXT.shell.connectedLive}
          </p>
          <button
            type="button"
            onClick={() => {
              setProfileOpened(true);
              setProfileOpen(true);
            }}
            aria-label={TEXT.shell.profileButton}
            className="rounded-full"
          >
            <ProfileAvatar name={user.name} imageUrl={user.profileImageUrl} />
          </button>
        </div>
      </div>
      {profileOpened && (
        <Suspense fallback={null}>
          <ProfileModal user={user} open={profileOpen} onOpenChange={setProfileOpen} />
        </Suspense>
      )}
    </header>
  );
}
