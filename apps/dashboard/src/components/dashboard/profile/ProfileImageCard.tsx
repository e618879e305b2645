import { type CurrentUser, PROFILE_IMAGE_MAX_BYTES_DASHBOARD } from '@fanpilot/contracts';
import { toast } from '@fanpilot/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../../../lib/api.ts';
import { currentUserQuery } from '../../../lib/queries.ts';
import { chosenImageProblem, hasUploadsSegment, UploadError, uploadFile } from '../../../lib/upload.ts';
import { TEXT } from '../../../texts.ts';
import { fileInputClass } from '../../field-classes.ts';
import { ImageIcon } from '../../icons.tsx';
import { SIGNUP_TEXT, UPLOAD_TEXT } from '../../signup/texts.ts';
import { Card } from '../Card.tsx';
import { ProfileAvatar } from '../ProfileAvatar.tsx';

class ProfileUpdateError extends Error {}
/** The upload finished but did not give an address the api can use. */
class ImageProcessingError extends Error {}

/** Shows the profile image and replaces it: upload to storage, then PUT .../profile-image. */
export function ProfileImageCard({ user }: { user: CurrentUser }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);

  const change = useMutation({
    mutationFn: async (file: File) => {
      let url: string;
      try {
        url = await uploadFile(file);
      } catch (cause) {
        throw new UploadError('upload failed', { cause });
      }
      if (!url || !hasUploadsSegment(url)) throw new ImageProcessingError(UPLOAD_TEXT.invalidUrl);
      try {
        return await api.call('updateProfileImage', {
          params: { username: user.username },
          body: { profileImageURL: url },
        });
      } catch (cause) {
        throw new ProfileUpdateError('update failed', { cause });
      }
    },
    onSuccess: ({ creator }) => {
      queryClient.setQueryData(currentUserQuery.queryKey, { ...user, ...creator });
      toast({ title: UPLOAD_TEXT.profileUpdated, variant: 'success' });
    },
    onError: (failure) => {
      if (failure instanceof UploadError) {
        toast({
          title: UPLOAD_TEXT.failedTitle,
          description: UPLOAD_TEXT.failedDescription,
          variant: 'error',
        });
      } else if (failure instanceof ProfileUpdateError) {
        toast({
          title: UPLOAD_TEXT.profileUpdateFailedTitle,
          description: UPLOAD_TEXT.profileUpdateFailedDescription,
          variant: 'error',
        });
      } else {
        toast({
          title: UPLOAD_TEXT.processErrorTitle,
          description: UPLOAD_TEXT.processErrorDescription,
          variant: 'error',
        });
      }
    },
  });

  return (
    <Card title={TEXT.profile.imageHeading} Icon={ImageIcon}>
      <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
        <ProfileAvatar
          name={user.name}
          imageUrl={user.profileImageUrl}
          className="size-24 text-3xl"
          alt={TEXT.profile.imageAlt(user.name)}
        />
        <div className="min-w-0 flex-1">
          <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
            {TEXT.profile.changeImage}
          </label>
          <input
            id={id}
            type="file"
            accept="image/*"
            disabled={change.isPending}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            onChange={async (event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (!file) return;
              // Type, size and content are checked here, before any upload.
              const problem = await chosenImageProblem(file, PROFILE_IMAGE_MAX_BYTES_DASHBOARD);
              setError(
                problem === 'too-large'
                  ? UPLOAD_TEXT.dashboardTooLarge
                  : problem === 'not-an-image'
                    ? SIGNUP_TEXT.errors.notAnImage
                    : null,
              );
              if (!problem) change.mutate(file);
            }}
            className={`mt-2 ${fileInputClass}`}
          />
          <p id={`${id}-hint`} className="mt-1.5 text-sm text-slate-600">
            {TEXT.profile.imageHint}
          </p>
          <p aria-live="polite" className="text-sm text-slate-600">
            {change.isPending ? TEXT.profile.uploading : ''}
          </p>
          {error && (
            <p id={`${id}-error`} className="text-sm font-medium text-red-700">
              {error}
            </p>
          )}
        </div>
      </div>
    </Card>
  );
}
