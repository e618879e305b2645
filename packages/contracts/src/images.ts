// Profile image sizes. No zod here: the fan app imports this module, and a zod object schema built
// at import time would make zod probe for eval, which the app's Content-Security-Policy refuses.
/**
 * The square sizes, in pixels, a profile image is served at (GET /objects/{key}?size=N, resized
 * once and kept): the fan app's 44 px avatar at 2× and the app icons. Without `size`, the original.
 */
export const IMAGE_SIZES = [48, 96, 192, 512] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];
/** The avatar beside the creator's name (44 CSS px, sharp on a 2× screen). */
export const AVATAR_IMAGE_SIZE: ImageSize = 96;

/** A profile image URL of ours (/objects/…) at `size`; any other URL (or none) as it is. */
export function sizedImageUrl<T extends string | null>(url: T, size: ImageSize): T {
  if (url === null) return url;
  const path = /^(?:https?:\/\/[^/]+)?\/objects\//.test(url);
  if (!path || url.includes('?')) return url;
  return `${url}?size=${size}` as T;
}
