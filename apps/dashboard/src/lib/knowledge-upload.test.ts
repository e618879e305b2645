import { describe, expect, it } from 'vitest';
import { createKnowledgeUploader, shouldRetryUpload, uploadErrorMessage } from './knowledge-upload.ts';

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
    expect(() => uppy.addFile(file('big.pdf', 10 * 1024 * 1024 + 1, 'application/pdf'))).toThrow();
    uppy.addFile(file('exactly-10mb.docx', 10 * 1024 * 1024));
    expect(uppy.getFiles()).toHaveLength(1);
  });

  it('posts the file alone, in the field "file", to the chatbot upload call', () => {
    const uppy = createKnowledgeUploader('bot 1');
    expect(uppy.getPlugin('XHRUpload')?.opts).toMatchObject({
      endpoint: '/api/chatbots/bot%201/knowledge/upload',
      fieldName: 'file',
      formData: true,
      allowedMetaFields: false,
      withCredentials: true,
    });
  });

  it('retries passing trouble only, never a refusal', () => {
    expect([0, 429, 500, 503].map((status) => shouldRetryUpload({ status }))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([400, 401, 403, 413, 415].map((status) => shouldRetryUpload({ status }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("reads the server's message from a failed upload", () => {
    const responseText = '{"error":"file_too_large","message":"The file is larger than 10 MB."}';
    expect(uploadErrorMessage({ request: { responseText } })).toBe('The file is larger than 10 MB.');
    expect(uploadErrorMessage({ request: { responseText: 'Bad Gateway' } })).toBeUndefined();
    expect(uploadErrorMessage(new Error('network'))).toBeUndefined();
  });
});
