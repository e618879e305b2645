import type { ErrorCode } from '@fanpilot/contracts';
import type { DomainReason } from '@fanpilot/core';

/** An error that becomes a 4xx `{ error, message }` answer. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code: ErrorCode = 'bad_request') =>
  new HttpError(400, code, message);
export const unauthorized = (message = 'Please sign in to continue.') =>
  new HttpError(401, 'unauthorized', message);
export const forbidden = (message = 'You can only act on your own account.') =>
  new HttpError(403, 'forbidden', message);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const conflict = (message: string, code: ErrorCode = 'conflict') => new HttpError(409, code, message);

/** The HTTP status a refusal of the domain core (a DomainError) answers with. */
export const DOMAIN_STATUS: Record<DomainReason, number> = {
  invalid: 400,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  limit: 409,
  gone: 410,
  too_large: 413,
  unprocessable: 422,
};
