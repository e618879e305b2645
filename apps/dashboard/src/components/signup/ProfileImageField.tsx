import { cn } from '@fanpilot/ui';
import { useId, useRef, useState } from 'react';
import { useObjectUrl } from '../../hooks/useObjectUrl.ts';
import { fileInputClass } from '../field-classes.ts';
import { ImageIcon } from '../icons.tsx';
import { SIGNUP_TEXT } from './texts.ts';

export type UploadState = 'idle' | 'uploading' | 'uploaded' | 'failed';

interface ProfileImageFieldProps {
  file: File | null;
  uploadState: UploadState;
  error: string | null;
  disabled?: boolean;
  /** Answers false when the file was refused (after checking its content), which clears the picker. */
  onChoose: (file: File) => Promise<boolean>;
  /** The browser could not draw the chosen image (a damaged file): it is refused like a non-image. */
  onPreviewFailed?: () => void;
}

const t = SIGNUP_TEXT;

/** Picks one profile image, previews it and says how its upload is going. */
export function ProfileImageField({
  file,
  uploadState,
  error,
  disabled,
  onChoose,
  onPreviewFailed,
}: ProfileImageFieldProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
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
          <PreviewImage
            key={previewUrl}
            src={previewUrl}
            onError={() => {
              if (inputRef.current) inputRef.current.value = '';
              onPreviewFailed?.();
            }}
          />
        ) : (
          <ImageIcon className="size-8 text-slate-400" />
        )}
      </div>
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
          {t.imageLabel}
        </label>
        <input
          ref={inputRef}
          id={id}
          type="file"
          accept="image/*"
          disabled={disabled}
          aria-describedby={cn(hintId, error && errorId, uploadState !== 'idle' && statusId)}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            const input = event.currentTarget;
            const chosen = input.files?.[0];
            if (!chosen) return;
            void onChoose(chosen).then((accepted) => {
              // Cleared only if the refused file is still the one in the picker.
              if (!accepted && input.files?.[0] === chosen) input.value = '';
            });
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
          <p id={errorId} role="alert" className="mt-1 text-sm font-medium text-red-700">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * The chosen image inside its circle. Should the browser fail to draw it, the placeholder icon
 * shows instead, and the alt text never spills out of the circle.
 */
function PreviewImage({ src, onError }: { src: string; onError: () => void }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <ImageIcon className="size-8 text-slate-400" />;
  return (
    <img
      src={src}
      alt={t.imagePreviewAlt}
      onError={() => {
        setBroken(true);
        onError();
      }}
      // Were the alt text ever drawn, it stays inside the circle, clipped and invisible.
      className="size-full overflow-hidden object-cover text-[0px]"
    />
  );
}
