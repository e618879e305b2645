import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type S3rver from 's3rver';

const require = createRequire(import.meta.url);

interface FilesystemStore {
  getResourcePath: (bucket: string, key: string | undefined, resource: string) => string;
  putObjectMultipart: (bucket: string, uploadId: string, parts: { number: number }[]) => Promise<unknown>;
}

type S3ErrorClass = new (code: string, message: string) => Error;

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * The embedded store (s3rver) completes a multipart upload by streaming its part files without
 * checking they exist: an unknown upload id answers 500, and a part never uploaded throws an
 * uncaught ENOENT that takes the whole process down. Checked first here, they are the errors S3
 * itself gives (NoSuchUpload 404, InvalidPart 400), which the api turns into 4xx answers.
 */
export function guardMultipartCompletion(server: S3rver): void {
  const store = (server as unknown as { store: FilesystemStore }).store;
  const S3Error = require('s3rver/lib/models/error') as S3ErrorClass;
  const complete = store.putObjectMultipart.bind(store);
  store.putObjectMultipart = async (bucket, uploadId, parts) => {
    const uploads = store.getResourcePath(bucket, undefined, 'uploads');
    const dir = path.join(uploads, uploadId);
    if (!uploadId || path.dirname(dir) !== uploads || !(await exists(path.join(dir, 'key')))) {
      throw new S3Error('NoSuchUpload', 'The specified upload does not exist.');
    }
    for (const part of parts) {
      if (!Number.isInteger(part.number) || !(await exists(path.join(dir, String(part.number))))) {
        throw new S3Error('InvalidPart', 'One or more of the specified parts could not be found.');
      }
    }
    return complete(bucket, uploadId, parts);
  };
}
