import type { CurrentUser } from '@fanpilot/contracts';
import { TEXT } from '../../texts.ts';
import { Modal } from '../dialogs.tsx';
import { CreatorLinks } from './CreatorLinks.tsx';
import { ProfileAvatar } from './ProfileAvatar.tsx';

interface ProfileModalProps {
  user: CurrentUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The small profile modal: who is signed in and their two addresses. */
export function ProfileModal({ user, open, onOpenChange }: ProfileModalProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={user.name} closeLabel={TEXT.common.close}>
      <div className="flex items-center gap-4">
        <ProfileAvatar name={user.name} imageUrl={user.profileImageUrl} className="size-16 text-2xl" />
        <div className="min-w-0">
          <p className="truncate font-semibold text-slate-900">@{user.username}</p>
          <p className="truncate text-sm text-slate-600">{user.email}</p>
        </div>
      </div>
      <div className="mt-5 border-t border-slate-100 pt-5">
        <CreatorLinks username={user.username} />
      </div>
    </Modal>
  );
}
