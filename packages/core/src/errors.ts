import type { ErrorCode } from '@fanpilot/contracts';

/**
 * A rule of the product said no. `reason` names the kind of refusal (the api answers it with a
 * status: invalid → 400, payment_required → 402, forbidden → 403, not_found → 404, conflict → 409,
 * limit → 409, gone → 410, too_large → 413, unprocessable → 422), `code`
 * is the `error` a client reads and `message` the sentence a person reads.
 */
export type DomainReason =
  | 'invalid'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'limit'
  | 'payment_required'
  | 'gone'
  | 'too_large'
  | 'unprocessable';

export class DomainError extends Error {
  constructor(
    readonly reason: DomainReason,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
