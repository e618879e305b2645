import { api } from './api.ts';

/** The uploaded object's address: the pre-signed URL without its signature (query string). */
export function uploadedObjectUrl(uploadURL: string): string {
  return uploadURL.split(/[?#]/, 1)[0] ?? '';
}

/** docs/product.md#onboarding: the image must come from an upload location with an `uploads` path segment. */
export function hasUploadsSegment(url: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://relative.invalid').pathname;
  } catch {
    return false;
  }
  return pathname.split('/').includes('uploads');
}

export class UploadError extends Error {
  override name = 'UploadError';
}

/**
 * Puts a file into object storage: asks the api for a pre-signed PUT address, then sends the file
 * straight there. That store is another origin, so the PUT carries no cookies or credentials.
 * Answers the object's address (no query string).
 */
export async function uploadFile(file: File): Promise<string> {
  const { uploadURL } = await api.call('profileImageUploadUrl', {});
  const response = await fetch(uploadURL, {
    method: 'PUT',
    body: file,
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
  });
  if (!response.ok) throw new UploadError(`${response.status}: ${response.statusText}`);
  return uploadedObjectUrl(uploadURL);
}

export type ImageProblem = 'not-an-image' | 'too-large';

/** Checks a chosen image against the type and size limits; answers the problem, or null. */
export function imageProblem(file: File, maxBytes: number): ImageProblem | null {
  if (!file.type.startsWith('image/')) return 'not-an-image';
  if (file.size > maxBytes) return 'too-large';
  return null;
}

/** The image formats the api takes, by their first bytes (as the api checks them). */
const SIGNATURES: readonly (readonly (number | null)[])[] = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38, 0x37, 0x61], // GIF87a
  [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], // GIF89a
  // WebP: 'RIFF', four bytes of length, 'WEBP'
  [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50],
];

/** Whether the file's bytes start like a PNG, JPEG, GIF or WebP image. */
export async function looksLikeImage(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  return SIGNATURES.some(
    (signature) =>
      head.length >= signature.length && signature.every((byte, i) => byte === null || head[i] === byte),
  );
}

/**
 * `imageProblem`, then the file's content: a file named like an image (or typed image/…) whose
 * bytes are no PNG, JPEG, GIF or WebP is refused in the browser, before any upload.
 */
export async function chosenImageProblem(file: File, maxBytes: number): Promise<ImageProblem | null> {
  const problem = imageProblem(file, maxBytes);
  if (problem) return problem;
  try {
    return (await looksLikeImage(file)) ? null : 'not-an-image';
  } catch {
    return 'not-an-image';
  }
}
