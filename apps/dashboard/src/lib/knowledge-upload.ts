import {
  KNOWLEDGE_FILE_EXTENSIONS,
  KNOWLEDGE_FILE_MAX_BYTES,
  type KnowledgeItem,
  UPLOAD_DEFAULT_MAX_FILES,
} from '@fanpilot/contracts';
import Uppy, { type Meta } from '@uppy/core';
import XHRUpload from '@uppy/xhr-upload';
import { parseErrorBody } from './api.ts';

export const KNOWLEDGE_FILE_ACCEPT = KNOWLEDGE_FILE_EXTENSIONS.join(',');

export type KnowledgeUploader = Uppy<Meta, KnowledgeItem & Record<string, never>>;

/** Passing trouble (no answer, rate limit, server error) is retried; a refusal (4xx) is final. */
export function shouldRetryUpload(xhr: Pick<XMLHttpRequest, 'status'>): boolean {
  return xhr.status === 0 || xhr.status === 429 || xhr.status >= 500;
}

/**
 * The knowledge file uploader (Uppy): SPEC's restrictions (1 file, 10 MB, pdf/txt/doc/docx), sent
 * as multipart form data in the field `file` to POST /api/chatbots/{id}/knowledge/upload with the
 * session cookie. Only the file goes in the form, no extra metadata fields.
 */
export function createKnowledgeUploader(chatbotId: string): KnowledgeUploader {
  const uppy: KnowledgeUploader = new Uppy({
    id: `knowledge-${chatbotId}`,
    autoProceed: false,
    allowMultipleUploadBatches: true,
    restrictions: {
      maxNumberOfFiles: UPLOAD_DEFAULT_MAX_FILES,
      maxFileSize: KNOWLEDGE_FILE_MAX_BYTES,
      allowedFileTypes: [...KNOWLEDGE_FILE_EXTENSIONS],
    },
  });
  uppy.use(XHRUpload, {
    endpoint: `/api/chatbots/${encodeURIComponent(chatbotId)}/knowledge/upload`,
    method: 'POST',
    formData: true,
    fieldName: 'file',
    allowedMetaFields: false,
    withCredentials: true,
    headers: { Accept: 'application/json' },
    limit: 1,
    shouldRetry: shouldRetryUpload,
  });
  return uppy;
}

/** The server's readable message from a failed upload (Uppy keeps the request on the error). */
export function uploadErrorMessage(error: unknown): string | undefined {
  const request = (error as { request?: { responseText?: unknown } } | null)?.request;
  const text = typeof request?.responseText === 'string' ? request.responseText : '';
  return parseErrorBody(text)?.message;
}
