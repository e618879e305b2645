/**
 * A failure of one knowledge item, told in words a person understands (the dashboard shows
 * `reason`). Permanent failures (a refused address, a file that is not what it claims) are not
 * retried; transient ones (a timeout, a 503) are, with backoff.
 */
export class IngestError extends Error {
  readonly reason: string;
  readonly permanent: boolean;
  constructor(reason: string, options: { permanent?: boolean; cause?: unknown } = {}) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'IngestError';
    this.reason = reason;
    this.permanent = options.permanent ?? true;
  }
}

export const permanent = (reason: string, cause?: unknown) =>
  new IngestError(reason, { permanent: true, cause });
export const transient = (reason: string, cause?: unknown) =>
  new IngestError(reason, { permanent: false, cause });

/** The reason to show for any error: ours verbatim, anything else as a generic sentence. */
export function reasonOf(error: unknown): string {
  if (error instanceof IngestError) return error.reason;
  return 'Something went wrong while processing this source. Please retry.';
}
