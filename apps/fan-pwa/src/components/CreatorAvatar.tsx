import { AVATAR_IMAGE_SIZE, sizedImageUrl } from '@fanpilot/contracts';
import { useState } from 'react';
import { texts } from '../texts.ts';

/** The creator's photo at a fixed size (no layout shift), or the default avatar when it is missing or fails. */
export function CreatorAvatar({
  src: original,
  name,
  size = 44,
}: {
  src: string | null;
  name: string;
  size?: number;
}) {
  // The picture resized for the avatar (sharp on a 2× screen), never the whole upload.
  const src = sizedImageUrl(original, size <= 48 ? AVATAR_IMAGE_SIZE : 192);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) return <DefaultAvatar name={name} size={size} />;
  return (
    <img
      src={src}
      alt={texts.creatorPhoto(name)}
      width={size}
      height={size}
      decoding="async"
      className="shrink-0 rounded-full bg-slate-200 object-cover"
      style={{ width: size, height: size }}
      onError={() => setFailedSrc(src)}
    />
  );
}

export function DefaultAvatar({ name, size = 44 }: { name: string; size?: number }) {
  return (
    <svg
      role="img"
      aria-label={texts.creatorPhoto(name)}
      data-testid="default-avatar"
      width={size}
      height={size}
      viewBox="0 0 40 40"
      className="shrink-0 rounded-full"
    >
      <rect width="40" height="40" className="fill-brand-100" />
      <circle cx="20" cy="16" r="7" className="fill-brand-700" />
      <path d="M6 38c1.5-8 7.5-12 14-12s12.5 4 14 12z" className="fill-brand-700" />
    </svg>
  );
}
