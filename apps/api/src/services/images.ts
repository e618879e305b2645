import type { ImageSize } from '@fanpilot/contracts';
import { PENDING_UPLOAD_PREFIX } from '@fanpilot/storage';
import { fileTypeFromBuffer } from 'file-type';
import { badRequest } from '../errors.ts';
import type { Storage } from '../plugins/storage.ts';

export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The largest profile image served from /objects/. */
const MAX_SERVED_BYTES = 10 * 1024 * 1024;

/**
 * A stored profile image to serve (only under uploads/, at most MAX_SERVED_BYTES, typed by its
 * content so an upload can never become a page of ours), or null.
 */
export async function readServedImage(
  storage: Storage,
  key: string,
): Promise<{ mime: string; body: Buffer } | null> {
  if (!key.startsWith('uploads/') || key.includes('..')) return null;
  const head = await storage.head(key);
  if (!head || head.contentLength > MAX_SERVED_BYTES) return null;
  const object = await storage.get(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
  const body = Buffer.concat(chunks);
  const type = await fileTypeFromBuffer(body);
  if (!type || !IMAGE_TYPES.has(type.mime)) return null;
  return { mime: type.mime, body };
}

/** Where a profile image resized to `size` is kept (never served as such: not under uploads/). */
export const resizedImageKey = (key: string, size: ImageSize) => `derived/resized/${size}/${key}`;

/** Avatars are photos: WebP is a fraction of PNG's bytes. Icons stay PNG, which every installer takes. */
const resizedMime = (size: ImageSize) => (size <= 96 ? 'image/webp' : 'image/png');

/** The image cut to a `size`-pixel square (centred, turned upright by its EXIF), as resizedMime says. */
export async function resizeSquare(body: Buffer, size: ImageSize): Promise<Buffer> {
  // libvips is loaded with the first image resized, not at start (the api's memory at rest).
  const { default: sharp } = await import('sharp');
  const image = sharp(body, { animated: false, limitInputPixels: 50_000_000 })
    .rotate()
    .resize(size, size, { fit: 'cover', position: 'attention' });
  return resizedMime(size) === 'image/webp'
    ? image.webp({ quality: 82 }).toBuffer()
    : image.png({ compressionLevel: 9 }).toBuffer();
}

async function readAll(storage: Storage, key: string): Promise<Buffer | null> {
  const object = await storage.get(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * A profile image served at `size` pixels square: resized the first time it is asked for and kept
 * in storage (resizedImageKey), read from there after. Null when the original is not one to serve.
 */
export async function readSizedImage(
  storage: Storage,
  key: string,
  size: ImageSize,
): Promise<{ mime: string; body: Buffer; resized: 'now' | 'kept' } | null> {
  if (!key.startsWith('uploads/') || key.includes('..')) return null;
  const mime = resizedMime(size);
  const keptKey = resizedImageKey(key, size);
  const kept = await readAll(storage, keptKey).catch(() => null);
  if (kept && kept.length > 0) return { mime, body: kept, resized: 'kept' };
  const original = await readServedImage(storage, key);
  if (!original) return null;
  let body: Buffer;
  try {
    body = await resizeSquare(original.body, size);
  } catch {
    // An image sharp cannot read (a broken file that only looks like one) is not served.
    return null;
  }
  // Keeping it is an optimisation: a failed write is resized again next time.
  await storage.put(keptKey, body, mime).catch(() => {});
  return { mime, body, resized: 'now' };
}

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
 * A refused upload is deleted at once. An accepted pending upload (uploads/pending/{owner}/{id}) is
 * moved to uploads/{owner}/{id}, the key returned: what stays under uploads/pending/ is never
 * referred to, and expires (bucket lifecycle rule, or the embedded store's sweep).
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
  const pendingPrefix = `${PENDING_UPLOAD_PREFIX}${ownerId}/`;
  const pending = key?.startsWith(pendingPrefix) ?? false;
  // Only the signed-in creator's own uploads: uploads/pending/{creatorId}/… or uploads/{creatorId}/…
  if (!key || !(pending || key.startsWith(`uploads/${ownerId}/`)) || key.includes('..')) {
    throw badRequest('Invalid upload URL format', 'invalid_upload_url');
  }
  const uploaded: string = key;
  const accepted = pending ? `uploads/${ownerId}/${uploaded.slice(pendingPrefix.length)}` : uploaded;
  const head = await storage.head(uploaded);
  if (!head) {
    // Sent twice (a double submit): the first already moved it.
    if (pending && (await storage.head(accepted))) return accepted;
    throw badRequest('The uploaded image was not found. Please upload it again.', 'upload_not_found');
  }
  // A refused pending upload is deleted as soon as it is checked.
  const refuse = async (error: Error): Promise<never> => {
    if (pending) await storage.remove(uploaded).catch(() => {});
    throw error;
  };
  if (head.contentLength > maxBytes) {
    return refuse(
      badRequest(`The image is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`, 'image_too_large'),
    );
  }
  // A request sent at the same time (a double submit) may move the upload while this one reads it.
  const movedMeanwhile = async (err?: unknown): Promise<string> => {
    if (pending && (await storage.head(accepted))) return accepted;
    if (!(await storage.head(uploaded))) {
      throw badRequest('The uploaded image was not found. Please upload it again.', 'upload_not_found');
    }
    throw err;
  };
  let prefix: Buffer | null;
  try {
    prefix = await readPrefix(storage, uploaded);
  } catch (err) {
    return movedMeanwhile(err);
  }
  if (!prefix && pending && (await storage.head(accepted))) return accepted;
  const type = prefix ? await fileTypeFromBuffer(prefix) : undefined;
  if (!type || !IMAGE_TYPES.has(type.mime)) {
    return refuse(badRequest('The profile image must be a PNG, JPEG, GIF or WebP image.', 'not_an_image'));
  }
  if (pending) {
    try {
      await storage.copy(uploaded, accepted);
    } catch (err) {
      return movedMeanwhile(err);
    }
    await storage.remove(uploaded).catch(() => {});
  }
  return accepted;
}
