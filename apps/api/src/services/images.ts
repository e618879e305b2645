import { fileTypeFromBuffer } from 'file-type';
import { badRequest } from '../errors.ts';
import type { Storage } from '../plugins/storage.ts';

export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export async function readPrefix(storage: Storage, key: string, bytes = 4100): Promise<Buffer | null> {
  const object = await storage.get(key, `bytes=0-${bytes - 1}`);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).subarray(0, bytes);
}

/**
 * Resolves a profile image URL the browser got from POST /api/objects/upload (or our /objects/ form)
 * to its storage key, checking it is the creator's own upload, present, small enough and an image.
 */
export async function verifyUploadedImage(
  storage: Storage,
  url: string,
  ownerId: string,
  maxBytes: number,
): Promise<string> {
  let key: string | null = null;
  const ours = /^(?:https?:\/\/[^/]+)?\/objects\/(.+)$/.exec(url.split('?')[0] ?? '');
  if (ours?.[1]) {
    try {
      key = decodeURIComponent(ours[1]);
    } catch {
      key = null;
    }
  } else {
    key = storage.keyFromUrl(url);
  }
  // Only the signed-in creator's own uploads: uploads/{creatorId}/…
  if (!key?.startsWith(`uploads/${ownerId}/`) || key.includes('..')) {
    throw badRequest('Invalid upload URL format', 'invalid_upload_url');
  }
  const head = await storage.head(key);
  if (!head)
    throw badRequest('The uploaded image was not found. Please upload it again.', 'upload_not_found');
  if (head.contentLength > maxBytes) {
    throw badRequest(`The image is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`, 'image_too_large');
  }
  const prefix = await readPrefix(storage, key);
  const type = prefix ? await fileTypeFromBuffer(prefix) : undefined;
  if (!type || !IMAGE_TYPES.has(type.mime)) {
    throw badRequest('The profile image must be a PNG, JPEG, GIF or WebP image.', 'not_an_image');
  }
  return key;
}
