import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

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

export interface Storage {
  bucket: string;
  /** Pre-signed PUT for the browser, under the given key. */
  presignPut: (key: string, expiresInSeconds?: number) => Promise<string>;
  /** The key an upload URL of ours points at, or null when the URL is not one of ours. */
  keyFromUrl: (url: string) => string | null;
  head: (key: string) => Promise<{ contentType: string | undefined; contentLength: number } | null>;
  get: (key: string, range?: string) => Promise<StoredObject | null>;
  put: (key: string, body: Buffer, contentType: string) => Promise<void>;
  remove: (key: string) => Promise<void>;
  ping: () => Promise<void>;
  newUploadKey: (ownerId: string) => string;
  client: S3Client;
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
    newUploadKey: (ownerId) => `uploads/${ownerId}/${randomUUID()}`,
    presignPut: (key, expiresIn = 900) =>
      getSignedUrl(publicClient, new PutObjectCommand({ Bucket: bucket, Key: key }), { expiresIn }),
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
      try {
        const r = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { contentType: r.ContentType, contentLength: r.ContentLength ?? 0 };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async get(key, range) {
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
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async ping() {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: '.ping' })).catch((err) => {
        if (!isMissing(err)) throw err;
      });
    },
  };
}
