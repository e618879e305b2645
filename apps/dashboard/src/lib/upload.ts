import type { ObjectUploadResponse } from '@fanpilot/contracts';
import { apiRequest } from './api.ts';

/** The uploaded object's address: the pre-signed URL without its signature (query string). */
export function uploadedObjectUrl(uploadURL: string): string {
  return uploadURL.split(/[?#]/, 1)[0] ?? '';
}

/** SPEC section 5: the image must come from an upload location with an `uploads` path segment. */
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
  const { uploadURL } = await apiRequest<ObjectUploadResponse>('POST', '/api/objects/upload');
  const response = await fetch(uploadURL, {
    method: 'PUT',
    body: file,
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
  });
  if (!response.ok) throw new UploadError(`${response.status}: ${response.statusText}`);
  return uploadedObjectUrl(uploadURL);
}

/** Checks a chosen image against the type and size limits; answers the problem, or null. */
export function imageProblem(file: File, maxBytes: number): 'not-an-image' | 'too-large' | null {
  if (!file.type.startsWith('image/')) return 'not-an-image';
  if (file.size > maxBytes) return 'too-large';
  return null;
}
