import { z } from 'zod';
import { UPLOAD_WIDGET } from './constants.ts';
import { IMAGE_SIZES, type ImageSize } from './images.ts';

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

export const IMAGE_SIZE_MESSAGE = `size must be one of ${IMAGE_SIZES.join(', ')}.`;

export const imageSizeQuerySchema = z.object({
  size: z.coerce
    .number({ error: IMAGE_SIZE_MESSAGE })
    .refine((n): n is ImageSize => (IMAGE_SIZES as readonly number[]).includes(n), {
      message: IMAGE_SIZE_MESSAGE,
    })
    .optional(),
});
