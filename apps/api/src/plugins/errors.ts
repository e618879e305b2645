import type { ErrorBody, ErrorCode } from '@fanpilot/contracts';
import { DomainError } from '@fanpilot/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { DOMAIN_STATUS, HttpError } from '../errors.ts';

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'The request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'The request body is empty; send a JSON object.'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Send the body as application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['bad_request', 'The Content-Length header does not match the body.'],
};

/** What a client is told to wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
/** PostgreSQL: shutting down or starting (57P01-57P03), too many connections (53300). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Whether a request failed because PostgreSQL could not be reached (refused, reset, shutting down, the
 * pool could not connect in time), as opposed to a query going wrong. Those answer 503 + Retry-After.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
        return true;
    }
    if (
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|connect ECONNREFUSED/i.test(
        current.message,
      )
    ) {
      return true;
    }
    const inner = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.some((e) => isDatabaseUnavailable(e))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * One error handler: 4xx carry `{ error, message }` a person can read (a validation error adds
 * `field`, the path of the value refused); 5xx never leak internals.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      return reply.code(err.statusCode).headers(err.headers).send({ error: err.code, message: err.message });
    }
    if (err instanceof DomainError) {
      return reply.code(DOMAIN_STATUS[err.reason]).send({ error: err.code, message: err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      // The schema's own words, verbatim (e.g. 'Please enter a chatbot name'); the field apart.
      const first = err.validation[0];
      const field = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || undefined;
      const message = first?.message || 'Invalid request';
      return reply
        .code(400)
        .send({ error: 'validation_error', message, ...(field ? { field } : {}) } satisfies ErrorBody);
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply
        .code(500)
        .send({ error: 'internal_error', message: 'Something went wrong on our side.' } satisfies ErrorBody);
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      const known = err.code ? FASTIFY_CODES[err.code] : undefined;
      const code: ErrorCode =
        known?.[0] ?? (status === 429 ? 'rate_limited' : status === 404 ? 'not_found' : 'bad_request');
      return reply.code(status).send({ error: code, message: known?.[1] ?? err.message });
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ reason: err.message, code: err.code }, 'database unavailable');
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({
        error: 'service_unavailable',
        message: 'The service is briefly unavailable. Nothing was lost; please try again in a few seconds.',
      });
    }
    request.log.error({ err }, 'request failed');
    return reply
      .code(500)
      .send({ error: 'internal_error', message: 'Something went wrong on our side.' } satisfies ErrorBody);
  });
});
