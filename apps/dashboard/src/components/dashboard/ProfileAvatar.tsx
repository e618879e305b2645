import { sizedImageUrl } from '@fanpilot/contracts';
import { cn } from '@fanpilot/ui';
import { useState } from 'react';

interface ProfileAvatarProps {
  name: string;
  imageUrl: string | null;
  className?: string;
  /** Empty when a text beside the picture already names the person. */
  alt?: string;
}

/** The creator's picture, or their initial when there is none or it fails to load. */
export function ProfileAvatar({ name, imageUrl, className = 'size-9', alt = '' }: ProfileAvatarProps) {
  // Served resized (at most 64 px shown, so 192 covers a 3× screen), not the whole upload.
  imageUrl = sizedImageUrl(imageUrl, 192);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const base = cn('shrink-0 overflow-hidden rounded-full', className);
  if (imageUrl && failedUrl !== imageUrl) {
    return (
      <img
        src={imageUrl}
        alt={alt}
        className={cn(base, 'object-cover')}
        onError={() => setFailedUrl(imageUrl)}
      />
    );
  }
  const initial = name.trim().charAt(0).toUpperCase() || '?';
  const fallback = cn(
    base,
    'flex items-center justify-center bg-gradient-to-br from-brand-500 to-fuchsia-500 font-bold text-white',
  );
  return alt ? (
    <span role="img" aria-label={alt} className={fallback}>
      {initial}
    </span>
  ) : (
    <span aria-hidden="true" className={fallback}>
      {initial}
    </span>
  );
}
