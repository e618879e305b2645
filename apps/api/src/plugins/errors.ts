import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError } from '../errors.ts';

const FASTIFY_CODES: Record<string, [string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'The request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'The request body is empty; send a JSON object.'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Send the body as application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['bad_request', 'The Content-Length header does not match the body.'],
};

/**
 * One error handler: 4xx carry `{ error, message }` a person can read (a validation error adds
 * `field`, the path of the value refused); 5xx never leak internals.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      return reply.code(err.statusCode).headers(err.headers).send({ error: err.code, message: err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      // The schema's own words, verbatim (e.g. 'Please enter a chatbot name'); the field apart.
      const first = err.validation[0];
      const field = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || undefined;
      const message = first?.message || 'Invalid request';
      return reply.code(400).send({ error: 'validation_error', message, ...(field ? { field } : {}) });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply.code(500).send({ error: 'internal_error', message: 'Something went wrong on our side.' });
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      const known = err.code ? FASTIFY_CODES[err.code] : undefined;
      const code =
        known?.[0] ?? (status === 429 ? 'rate_limited' : status === 404 ? 'not_found' : 'bad_request');
      return reply.code(status).send({ error: code, message: known?.[1] ?? err.message });
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send({ error: 'internal_error', message: 'Something went wrong on our side.' });
  });
});
