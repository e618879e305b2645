import { PROFILE_IMAGE_MAX_BYTES_SIGNUP } from '@fanpilot/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chosenImageProblem,
  hasUploadsSegment,
  imageProblem,
  looksLikeImage,
  uploadedObjectUrl,
  uploadFile,
} from './upload.ts';

const SIGNED =
  'http://127.0.0.1:41234/fanpilot/uploads/creator-1/7b1c?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc';

describe('uploadedObjectUrl', () => {
  it('drops the signature query string', () => {
    expect(uploadedObjectUrl(SIGNED)).toBe('http://127.0.0.1:41234/fanpilot/uploads/creator-1/7b1c');
  });
});

describe('hasUploadsSegment', () => {
  it('accepts an address with an uploads path segment', () => {
    expect(hasUploadsSegment(uploadedObjectUrl(SIGNED))).toBe(true);
    expect(hasUploadsSegment('https://bucket.s3.amazonaws.com/uploads/abc')).toBe(true);
    expect(hasUploadsSegment('/objects/uploads/abc')).toBe(true);
  });

  it('rejects addresses where uploads is not a whole segment or only in the query', () => {
    expect(hasUploadsSegment('https://bucket.s3.amazonaws.com/my-uploads/abc')).toBe(false);
    expect(hasUploadsSegment('https://bucket.s3.amazonaws.com/abc?dir=uploads')).toBe(false);
    expect(hasUploadsSegment('https://uploads.example.com/abc')).toBe(false);
    expect(hasUploadsSegment('')).toBe(false);
  });
});

describe('imageProblem', () => {
  const file = (type: string, size: number) => new File([new Uint8Array(size)], 'a', { type });

  it('accepts an image within the limit', () => {
    expect(imageProblem(file('image/png', 1024), PROFILE_IMAGE_MAX_BYTES_SIGNUP)).toBeNull();
  });

  it('rejects images over the limit and files that are not images', () => {
    expect(imageProblem(file('image/png', 11), 10)).toBe('too-large');
    expect(imageProblem(file('application/pdf', 1), 10)).toBe('not-an-image');
  });
});

describe('chosenImageProblem (before any upload)', () => {
  const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
  const bytes = (head: number[], name: string, type: string) =>
    new File([new Uint8Array([...head, ...new Array(64).fill(0)])], name, { type });
  const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

  it('accepts PNG, JPEG, GIF and WebP content', async () => {
    for (const head of [
      PNG,
      [0xff, 0xd8, 0xff, 0xe0],
      ascii('GIF89a'),
      ascii('GIF87a'),
      [...ascii('RIFF'), 1, 2, 3, 4, ...ascii('WEBP')],
    ]) {
      expect(await looksLikeImage(bytes(head, 'a.img', 'image/png'))).toBe(true);
      expect(
        await chosenImageProblem(bytes(head, 'me.png', 'image/png'), PROFILE_IMAGE_MAX_BYTES_SIGNUP),
      ).toBeNull();
    }
  });

  it('refuses a file named and typed like an image whose content is not one', async () => {
    const fake = new File(['These are my notes, not a picture.'], 'notes.png', { type: 'image/png' });
    expect(imageProblem(fake, PROFILE_IMAGE_MAX_BYTES_SIGNUP)).toBeNull();
    expect(await chosenImageProblem(fake, PROFILE_IMAGE_MAX_BYTES_SIGNUP)).toBe('not-an-image');
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', {
      type: 'image/svg+xml',
    });
    expect(await chosenImageProblem(svg, PROFILE_IMAGE_MAX_BYTES_SIGNUP)).toBe('not-an-image');
    expect(await chosenImageProblem(new File([], 'empty.png', { type: 'image/png' }), 10)).toBe(
      'not-an-image',
    );
  });

  it('still refuses other types and files over the limit without reading them', async () => {
    expect(
      await chosenImageProblem(bytes(PNG, 'a.pdf', 'application/pdf'), PROFILE_IMAGE_MAX_BYTES_SIGNUP),
    ).toBe('not-an-image');
    expect(await chosenImageProblem(bytes(PNG, 'big.png', 'image/png'), 10)).toBe('too-large');
  });
});

describe('uploadFile', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for a pre-signed address, then PUTs the file there without credentials', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(new Response(JSON.stringify({ uploadURL: SIGNED }), { status: 200 }))
      .mockResolvedValueOnce(new Response(null, { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const image = new File([new Uint8Array(8)], 'me.png', { type: 'image/png' });

    await expect(uploadFile(image)).resolves.toBe('http://127.0.0.1:41234/fanpilot/uploads/creator-1/7b1c');

    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/objects/upload');
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ method: 'POST', credentials: 'include' });
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(url).toBe(SIGNED);
    expect(init).toMatchObject({ method: 'PUT', body: image, headers: { 'Content-Type': 'image/png' } });
    expect(init?.credentials).toBeUndefined();
  });

  it('fails when storage refuses the file', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn<typeof fetch>()
        .mockResolvedValueOnce(new Response(JSON.stringify({ uploadURL: SIGNED }), { status: 200 }))
        .mockResolvedValueOnce(new Response('denied', { status: 403, statusText: 'Forbidden' })),
    );
    await expect(uploadFile(new File(['x'], 'a.png', { type: 'image/png' }))).rejects.toThrow(
      '403: Forbidden',
    );
  });
});
