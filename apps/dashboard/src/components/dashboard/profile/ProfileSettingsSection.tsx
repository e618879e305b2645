import type { CurrentUser } from '@fanpilot/contracts';
import { type Ref, useId } from 'react';
import { TEXT } from '../../../texts.ts';
import { ExternalIcon, UserIcon } from '../../icons.tsx';
import { Card } from '../Card.tsx';
import { CreatorLinks } from '../CreatorLinks.tsx';
import { SectionHeading } from '../SectionHeading.tsx';
import { DescriptionCard } from './DescriptionCard.tsx';
import { ProfileImageCard } from './ProfileImageCard.tsx';
import { WidgetCard } from './WidgetCard.tsx';

const t = TEXT.profile;

function ReadOnlyField({ label, value, note }: { label: string; value: string; note: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
        {label}
      </label>
      <input
        id={id}
        type="text"
        value={value}
        readOnly
        aria-describedby={`${id}-note`}
        className="mt-2 block w-full rounded-lg border border-slate-200 bg-slate-50 px-3 py-2.5 text-slate-700"
      />
      <p id={`${id}-note`} className="mt-1.5 text-sm text-slate-600">
        {note}
      </p>
    </div>
  );
}

/** Profile Settings: image, read-only name and username, and the creator's addresses. */
export function ProfileSettingsSection({
  user,
  headingRef,
}: {
  user: CurrentUser;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  return (
    <>
      <SectionHeading headingRef={headingRef} title={t.heading} lead={t.lead} />
      <div className="grid gap-6 xl:grid-cols-2">
        <ProfileImageCard user={user} />
        <Card title={t.accountHeading} Icon={UserIcon}>
          <div className="space-y-5">
            <ReadOnlyField label={t.name} value={user.name} note={t.nameNote} />
            <ReadOnlyField label={t.username} value={user.username} note={t.usernameNote} />
          </div>
        </Card>
        <DescriptionCard user={user} />
        <Card title={t.linksHeading} Icon={ExternalIcon} className="xl:col-span-2">
          <CreatorLinks username={user.username} />
          <p className="mt-4 text-sm text-slate-600">{t.pwaNote}</p>
          <p className="mt-1 text-sm text-slate-600">{t.extensionNote}</p>
          <p className="mt-1 text-sm text-slate-600">{t.extensionHowTo}</p>
        </Card>
        <WidgetCard username={user.username} name={user.name} />
      </div>
    </>
  );
}
