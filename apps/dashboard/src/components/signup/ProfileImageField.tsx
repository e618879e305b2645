import { cn } from '@fanpilot/ui';
import { useId } from 'react';
import { useObjectUrl } from '../../hooks/useObjectUrl.ts';
import { TEXT } from '../../texts.ts';
import { fileInputClass } from '../field-classes.ts';
import { ImageIcon } from '../icons.tsx';

export type UploadState = 'idle' | 'uploading' | 'uploaded' | 'failed';

interface ProfileImageFieldProps {
  file: File | null;
  uploadState: UploadState;
  error: string | null;
  disabled?: boolean;
  /** Answers false when the file was refused, which clears the picker. */
  onChoose: (file: File) => boolean;
}

const t = TEXT.signup;

/** Picks one profile image, previews it and says how its upload is going. */
export function ProfileImageField({ file, uploadState, error, disabled, onChoose }: ProfileImageFieldProps) {
  const id = useId();
  const previewUrl = useObjectUrl(file);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const statusId = `${id}-status`;
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <div
        className={cn(
          'flex size-24 shrink-0 items-center justify-center overflow-hidden rounded-full border-2 border-dashed bg-slate-50',
          error ? 'border-red-400' : 'border-slate-300',
        )}
      >
        {previewUrl ? (
          <img src={previewUrl} alt={t.imagePreviewAlt} className="size-full object-cover" />
        ) : (
          <ImageIcon className="size-8 text-slate-400" />
        )}
      </div>
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
          {t.imageLabel}
        </label>
        <input
          id={id}
          type="file"
          accept="image/*"
          disabled={disabled}
          aria-describedby={cn(hintId, error && errorId, uploadState !== 'idle' && statusId)}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            const chosen = event.target.files?.[0];
            if (chosen && !onChoose(chosen)) event.target.value = '';
          }}
          className={`mt-2 ${fileInputClass}`}
        />
        <p id={hintId} className="mt-1.5 text-sm text-slate-600">
          {t.imageHint}
        </p>
        <p id={statusId} aria-live="polite" className="text-sm text-slate-600">
          {uploadState === 'uploading' && t.uploading}
          {uploadState === 'uploaded' && t.uploaded}
        </p>
        {error && (
          <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
