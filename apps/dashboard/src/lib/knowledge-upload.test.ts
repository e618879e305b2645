import { UPLOAD_WIDGET } from '@fanpilot/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { createKnowledgeUploader, knowledgePartSize, uploadErrorMessage } from './knowledge-upload.ts';

const MB = 1024 * 1024;

const file = (name: string, bytes: number, type = 'application/octet-stream') => ({
  name,
  type,
  data: new Blob([new Uint8Array(bytes)], { type }),
  source: 'Local',
});

describe('the knowledge uploader', () => {
  it('takes one pdf, txt, doc or docx file of at most 10 MB', () => {
    const uppy = createKnowledgeUploader('bot-1');
    uppy.addFile(file('notes.txt', 10, 'text/plain'));
    expect(uppy.getFiles().map((f) => f.name)).toEqual(['notes.txt']);
    expect(() => uppy.addFile(file('more.pdf', 10, 'application/pdf'))).toThrow();
    uppy.clear();
    expect(() => uppy.addFile(file('photo.png', 10, 'image/png'))).toThrow();
    expect(() => uppy.addFile(file('big.pdf', 10 * MB + 1, 'application/pdf'))).toThrow();
    uppy.addFile(file('exactly-10mb.docx', 10 * MB));
    expect(uppy.getFiles()).toHaveLength(1);
  });

  it("uploads to storage through the api's S3 signing calls, with the widget's default settings", () => {
    const uppy = createKnowledgeUploader('bot 1');
    const opts = uppy.getPlugin('AwsS3')?.opts as Record<string, unknown> & {
      shouldUseMultipart: (f: { size: number }) => boolean;
    };
    expect(opts).toMatchObject({ companionEndpoint: '/api', limit: UPLOAD_WIDGET.concurrentRequests });
    expect(opts.shouldUseMultipart({ size: 100 * MB })).toBe(false);
    expect(opts.shouldUseMultipart({ size: 100 * MB + 1 })).toBe(true);
    expect(knowledgePartSize({ size: 10 * MB })).toBe(5 * MB);
    expect(knowledgePartSize({ size: 100_000 * MB })).toBe(10 * MB);
  });

  it("says why an upload failed: 401, expired signature, no network, or the server's message", () => {
    expect(uploadErrorMessage(new ApiError(401, 'Unauthorized', ''))).toBe('Authorization required');
    expect(uploadErrorMessage(new Error('Companion request failed: Unauthorized'))).toBe(
      'Authorization required',
    );
    expect(uploadErrorMessage({ request: { status: 401, responseText: '' } })).toBe('Authorization required');
    const expired =
      '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
    expect(uploadErrorMessage({ request: { status: 403, responseText: expired } })).toBe(
      'Request has expired',
    );
    expect(uploadErrorMessage({ request: { status: 0, responseText: '' } })).toMatch(/^Network error/);
    expect(uploadErrorMessage(new TypeError('Failed to fetch'))).toMatch(/^Network error/);
    const refused = new ApiError(400, 'Bad Request', '{"error":"unsupported_file","message":"Not a PDF."}');
    expect(uploadErrorMessage(refused)).toBe('Not a PDF.');
    const responseText = '{"error":"file_too_large","message":"The file is larger than 10 MB."}';
    expect(uploadErrorMessage({ request: { status: 413, responseText } })).toBe(
      'The file is larger than 10 MB.',
    );
    expect(uploadErrorMessage({ request: { status: 502, responseText: 'Bad Gateway' } })).toBeUndefined();
  });
});
