import { z } from 'zod';
import { UPLOAD_WIDGET } from './constants.ts';

// The upload widget's calls (Uppy's AWS S3 protocol against our signing endpoints under /api/s3).

export const filenameSchema = z.string().trim().min(1).max(255);
export const typeSchema = z.string().max(255).optional();
export const keyQuerySchema = z.object({ key: z.string().min(1).max(1024) });
export const uploadIdSchema = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^[^\s/?#]+$/, 'Invalid upload id')
  // A store's upload id is a token, never a path step ('.', '..').
  .refine((id) => !/^\.+$/.test(id), 'Invalid upload id');
export const partNumberSchema = z.coerce.number().int().min(1).max(UPLOAD_WIDGET.maxParts);

/**
 * The square sizes, in pixels, a profile image is served at (GET /objects/{key}?size=N, resized
 * once and kept): the fan app's 44 px avatar at 2× and the app icons. Without `size`, the original.
 */
export const IMAGE_SIZES = [48, 96, 192, 512] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];
/** The avatar beside the creator's name (44 CSS px, sharp on a 2× screen). */
export const AVATAR_IMAGE_SIZE: ImageSize = 96;

export const IMAGE_SIZE_MESSAGE = `size must be one of ${IMAGE_SIZES.join(', ')}.`;

export const imageSizeQuerySchema = z.object({
  size: z.coerce
    .number({ error: IMAGE_SIZE_MESSAGE })
    .refine((n): n is ImageSize => (IMAGE_SIZES as readonly number[]).includes(n), {
      message: IMAGE_SIZE_MESSAGE,
    })
    .optional(),
});

/** A profile image URL of ours (/objects/…) at `size`; any other URL (or none) as it is. */
export function sizedImageUrl<T extends string | null>(url: T, size: ImageSize): T {
  if (url === null) return url;
  const path = /^(?:https?:\/\/[^/]+)?\/objects\//.test(url);
  if (!path || url.includes('?')) return url;
  return `${url}?size=${size}` as T;
}
