import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

/** Pre-signed profile-image uploads land here until a route accepts them (see newUploadKey). */
export const PENDING_UPLOAD_PREFIX = 'uploads/pending/';

export interface StorageConfig {
  endpoint: string | undefined;
  /** Where browsers reach the store, when it differs from endpoint. */
  publicEndpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

export interface StoredObject {
  body: Readable;
  contentType: string | undefined;
  contentLength: number | undefined;
  etag: string | undefined;
}

/** One uploaded part of a multipart upload. */
export interface UploadedPart {
  PartNumber: number;
  ETag: string;
  Size?: number;
}

/** A browser form upload (S3 POST policy): POST `fields` plus the file as multipart form data to `url`. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

/**
 * Multipart uploads straight from the browser. Part URLs are signed for the browser's address
 * (publicEndpoint), like presignPut; create, list, complete and abort are the server's own calls to
 * the store at its own address (the upload id is the store's, whichever address it was reached at).
 */
export interface MultipartStorage {
  create: (key: string, contentType: string) => Promise<{ uploadId: string; key: string }>;
  /** Pre-signed PUT for one part (1..10000). */
  presignPart: (
    key: string,
    uploadId: string,
    partNumber: number,
    expiresInSeconds?: number,
  ) => Promise<string>;
  listParts: (key: string, uploadId: string) => Promise<UploadedPart[]>;
  complete: (
    key: string,
    uploadId: string,
    parts: { PartNumber: number; ETag: string }[],
  ) => Promise<{ location: string | undefined }>;
  abort: (key: string, uploadId: string) => Promise<void>;
}

export interface Storage {
  bucket: string;
  /** Pre-signed PUT for the browser, under the given key. */
  presignPut: (key: string, expiresInSeconds?: number) => Promise<string>;
  /** Pre-signed browser form upload (POST policy) of exactly `key`, with a size range and content type. */
  presignPost: (
    key: string,
    options: { contentType: string; maxBytes: number; expiresInSeconds?: number },
  ) => Promise<PresignedPost>;
  multipart: MultipartStorage;
  /** The key an upload URL of ours points at, or null when the URL is not one of ours. */
  keyFromUrl: (url: string) => string | null;
  head: (key: string) => Promise<{ contentType: string | undefined; contentLength: number } | null>;
  get: (key: string, range?: string) => Promise<StoredObject | null>;
  put: (key: string, body: Buffer, contentType: string) => Promise<void>;
  remove: (key: string) => Promise<void>;
  /** Copies an object within the bucket (server side). */
  copy: (from: string, to: string) => Promise<void>;
  /** Every object whose key starts with `prefix`, with when it was last written. */
  list: (prefix: string) => AsyncGenerator<{ key: string; lastModified: Date | undefined }>;
  ping: () => Promise<void>;
  /**
   * Where a browser's pre-signed upload lands: uploads/pending/{owner}/{uuid}. Nothing refers to a
   * pending upload; an accepted one is moved to uploads/{owner}/{uuid}, and pending ones expire.
   */
  newUploadKey: (ownerId: string) => string;
  client: S3Client;
}

/** S3's limit on a key (UTF-8 bytes). */
export const MAX_KEY_BYTES = 1024;
/**
 * Longest part of a key between slashes (UTF-8 bytes) this app writes or looks up. File-backed
 * stores (the embedded one) keep each part as a file name, which the file system limits to 255
 * bytes, less the store's own suffix; every key the app makes stays far below it.
 */
export const MAX_KEY_SEGMENT_BYTES = 200;

/**
 * Whether `key` is one this app could have stored: at most MAX_KEY_BYTES, no part over
 * MAX_KEY_SEGMENT_BYTES, no control character and no unpaired surrogate. Anything else cannot
 * exist, so looking it up finds nothing (rather than the store failing on it).
 */
export function isStorableKey(key: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (!key || /[\u0000-\u001f\u007f\p{Cs}]/u.test(key)) return false;
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) return false;
  return key.split('/').every((part) => Buffer.byteLength(part, 'utf8') <= MAX_KEY_SEGMENT_BYTES);
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

export async function createStorage(s3: StorageConfig): Promise<Storage> {
  const base: S3ClientConfig = {
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    ...(s3.accessKeyId && s3.secretAccessKey
      ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
      : {}),
  };
  const client = new S3Client({ ...base, ...(s3.endpoint ? { endpoint: s3.endpoint } : {}) });
  // Browsers may reach the store at another address than the server does (compose, proxies).
  const publicEndpoint = s3.publicEndpoint ?? s3.endpoint;
  const publicClient =
    publicEndpoint === s3.endpoint
      ? client
      : new S3Client({ ...base, ...(publicEndpoint ? { endpoint: publicEndpoint } : {}) });
  const bucket = s3.bucket;

  // Where a pre-signed URL puts its key, learned from a real one, so any addressing style works.
  const probeKey = 'uploads/__probe__';
  const probe = new URL(
    await getSignedUrl(publicClient, new PutObjectCommand({ Bucket: bucket, Key: probeKey })),
  );
  const uploadOrigin = probe.origin;
  const keyPathPrefix = probe.pathname.slice(0, probe.pathname.length - probeKey.length);

  return {
    bucket,
    client,
    newUploadKey: (ownerId) => `${PENDING_UPLOAD_PREFIX}${ownerId}/${randomUUID()}`,
    presignPut: (key, expiresIn = 900) =>
      getSignedUrl(publicClient, new PutObjectCommand({ Bucket: bucket, Key: key }), { expiresIn }),
    async presignPost(key, { contentType, maxBytes, expiresInSeconds = 900 }) {
      const { url, fields } = await createPresignedPost(publicClient, {
        Bucket: bucket,
        Key: key,
        Conditions: [
          ['content-length-range', 1, maxBytes],
          ['eq', '$Content-Type', contentType],
        ],
        Fields: { 'Content-Type': contentType },
        Expires: expiresInSeconds,
      });
      return { url, fields };
    },
    multipart: {
      async create(key, contentType) {
        const r = await client.send(
          new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
        );
        if (!r.UploadId) throw new Error('The store returned no upload id');
        return { uploadId: r.UploadId, key };
      },
      presignPart: (key, uploadId, partNumber, expiresIn = 900) =>
        getSignedUrl(
          publicClient,
          new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }),
          { expiresIn },
        ),
      async listParts(key, uploadId) {
        const parts: UploadedPart[] = [];
        let marker: string | undefined;
        do {
          const r = await client.send(
            new ListPartsCommand({
              Bucket: bucket,
              Key: key,
              UploadId: uploadId,
              ...(marker ? { PartNumberMarker: marker } : {}),
            }),
          );
          for (const p of r.Parts ?? []) {
            if (p.PartNumber && p.ETag) parts.push({ PartNumber: p.PartNumber, ETag: p.ETag, Size: p.Size });
          }
          marker = r.IsTruncated ? r.NextPartNumberMarker : undefined;
        } while (marker);
        return parts;
      },
      async complete(key, uploadId, parts) {
        const r = await client.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: [...parts].sort((a, b) => a.PartNumber - b.PartNumber) },
          }),
        );
        return { location: r.Location };
      },
      async abort(key, uploadId) {
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
      },
    },
    keyFromUrl(raw) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return null;
      }
      if (url.origin !== uploadOrigin || !url.pathname.startsWith(keyPathPrefix)) return null;
      try {
        return decodeURIComponent(url.pathname.slice(keyPathPrefix.length)) || null;
      } catch {
        return null;
      }
    },
    async head(key) {
      if (!isStorableKey(key)) return null;
      try {
        const r = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { contentType: r.ContentType, contentLength: r.ContentLength ?? 0 };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async get(key, range) {
      if (!isStorableKey(key)) return null;
      try {
        const r = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: range } : {}) }),
        );
        return {
          body: r.Body as Readable,
          contentType: r.ContentType,
          contentLength: r.ContentLength,
          etag: r.ETag,
        };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }),
      );
    },
    async remove(key) {
      if (!isStorableKey(key)) return;
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async copy(from, to) {
      await client.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: to,
          CopySource: `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
        }),
      );
    },
    async *list(prefix) {
      let token: string | undefined;
      do {
        const r = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        );
        for (const o of r.Contents ?? []) if (o.Key) yield { key: o.Key, lastModified: o.LastModified };
        token = r.IsTruncated ? r.NextContinuationToken : undefined;
      } while (token);
    },
    async ping() {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: '.ping' })).catch((err) => {
        if (!isMissing(err)) throw err;
      });
    },
  };
}
