import {
  KNOWLEDGE_FILE_EXTENSIONS,
  KNOWLEDGE_FILE_MAX_BYTES,
  parseErrorBody,
  routes,
  UPLOAD_DEFAULT_MAX_FILES,
  UPLOAD_WIDGET,
} from '@fanpilot/contracts';
import AwsS3, { type AwsBody } from '@uppy/aws-s3';
import Uppy, { type Meta } from '@uppy/core';
import { TEXT } from '../texts.ts';
import { ApiError, api, serverMessage } from './api.ts';

export const KNOWLEDGE_FILE_ACCEPT = KNOWLEDGE_FILE_EXTENSIONS.join(',');

export type KnowledgeUploader = Uppy<Meta, AwsBody>;

/** Where the upload widget's S3 calls live: `${KNOWLEDGE_UPLOAD_ENDPOINT}/s3/params`, `/s3/multipart`, … */
export const KNOWLEDGE_UPLOAD_ENDPOINT = routes.s3Params.path.slice(0, -'/s3/params'.length);

/** Part size: S3's 5 MB minimum, larger only when the file would need more than 10000 parts. */
export const knowledgePartSize = (file: { size: number }) =>
  Math.max(UPLOAD_WIDGET.minPartBytes, Math.ceil(file.size / UPLOAD_WIDGET.maxParts));

/**
 * The knowledge file uploader (Uppy with @uppy/aws-s3): the specified restrictions (1 file, 10 MB,
 * pdf/txt/doc/docx), the bytes sent straight to the store through requests the api signs (its
 * s3/params and s3/multipart calls, docs/product.md#sources), multipart above the specified 100 MB threshold. The
 * signing calls are same-origin, so they carry the session cookie. Once stored, the object is
 * turned into a knowledge item by registerKnowledgeUpload.
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
  uppy.use(AwsS3, {
    companionEndpoint: KNOWLEDGE_UPLOAD_ENDPOINT,
    shouldUseMultipart: (file) => (file.size ?? 0) > UPLOAD_WIDGET.multipartThresholdBytes,
    getChunkSize: knowledgePartSize,
    limit: UPLOAD_WIDGET.concurrentRequests,
    allowedMetaFields: ['name', 'type'],
  });
  return uppy;
}

/**
 * Turns the stored object into a knowledge item (the addUploadedKnowledgeFile call); with
 * `fansMayDownload`, fans who are cited the file may download it whole.
 */
export function registerKnowledgeUpload(
  chatbotId: string,
  key: string,
  filename: string,
  fansMayDownload = false,
) {
  return api.call('addUploadedKnowledgeFile', {
    params: { id: chatbotId },
    body: { key, filename, fansMayDownload },
  });
}

const t = TEXT.addKnowledge;

const isOfflineFailure = (message: string) =>
  /failed to fetch|networkerror|network error|load failed|network request failed/i.test(message);

/**
 * What to tell the creator about a failed upload (docs/product.md#contractual-texts's widget texts): 'Authorization
 * required' for a 401, 'Request has expired' when the store refused an expired signature, a network
 * notice when nothing answered, else the server's own message when it sent one.
 */
export function uploadErrorMessage(error: unknown): string | undefined {
  if (error instanceof ApiError) {
    if (error.status === 401) return t.authorizationRequired;
    return serverMessage(error);
  }
  const e = (error ?? {}) as {
    message?: unknown;
    request?: { status?: unknown; responseText?: unknown } | null;
    responseText?: unknown;
  };
  const message = typeof e.message === 'string' ? e.message : '';
  const request = e.request;
  const status = typeof request?.status === 'number' ? request.status : undefined;
  const text =
    typeof request?.responseText === 'string'
      ? request.responseText
      : typeof e.responseText === 'string'
        ? e.responseText
        : '';
  if (/request has expired/i.test(text) || /request has expired/i.test(message)) return t.requestExpired;
  if (status === 401 || /companion request failed: unauthorized/i.test(message))
    return t.authorizationRequired;
  if (status === 0 || (request == null && isOfflineFailure(message))) return t.networkError;
  return parseErrorBody(text)?.message;
}
