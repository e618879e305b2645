import type { ErrorBody } from '@fanpilot/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../errors.ts';

/**
 * One rule for every piece of text a request carries (docs/decisions/0006-clean-input.md): a NUL
 * (U+0000) or an unpaired UTF-16 surrogate is refused with 400 `invalid_text`, naming the field,
 * wherever it is — a JSON body (keys and values, at any depth), a path parameter, a query
 * parameter (name or value), a multipart file name or text field. Malformed %-escapes in the path
 * or the query are a 400 `invalid_url`, a request line longer than MAX_URL_LENGTH a 414. Cookies
 * are the exception: one that breaks the rule is dropped (treated as not sent), since a browser
 * cannot easily be told to stop sending it.
 */

/** Longest request target (path and query) accepted; more is a 414. */
export const MAX_URL_LENGTH = 8192;
/** Longest single path parameter the router takes (more is a 414); schemas set tighter limits. */
export const MAX_PARAM_LENGTH = 1024;
/** Deepest JSON body accepted (no call of the api nests more than a few levels). */
export const MAX_JSON_DEPTH = 32;

/** In unicode mode `\p{Cs}` matches only surrogates that are not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/** What is wrong with `text`, in words, or null when it is clean. */
export function textProblem(text: string): string | null {
  if (text.includes('\0')) return 'a NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'an unpaired UTF-16 surrogate';
  return null;
}

/** The rule's 400; `field` (when given) is the name or body path of the value refused. */
export class InvalidTextError extends HttpError {
  constructor(
    where: string,
    problem: string,
    readonly field?: string,
  ) {
    super(
      400,
      'invalid_text',
      `${where} contains ${problem}, which is not allowed in text. Remove it and try again.`,
    );
  }
}

/** Throws the rule's 400 when `text` breaks it; `where` names the field for the person reading. */
export function assertCleanText(text: string | undefined | null, where: string, field?: string): void {
  if (typeof text !== 'string') return;
  const problem = textProblem(text);
  if (problem) throw new InvalidTextError(where, problem, field);
}

/** A multipart part as @fastify/multipart gives it: its file name and the text fields read before it. */
interface MultipartLike {
  fieldname?: string;
  filename?: string;
  fields?: Record<string, unknown>;
  file?: { resume: () => unknown };
}

/**
 * The rule for a multipart upload: the file's name, field names and every text field. A refused
 * part's file stream is drained, so the request still ends.
 */
export function assertCleanMultipart(part: MultipartLike | undefined): void {
  if (!part) return;
  try {
    checkMultipart(part);
  } catch (err) {
    part.file?.resume();
    throw err;
  }
}

function checkMultipart(part: MultipartLike): void {
  assertCleanText(part.fieldname, 'The form field name');
  assertCleanText(part.filename, 'The file name');
  for (const [name, value] of Object.entries(part.fields ?? {})) {
    assertCleanText(name, 'A form field name');
    for (const field of Array.isArray(value) ? value : [value]) {
      const f = field as { type?: string; value?: unknown };
      if (f?.type === 'field' && typeof f.value === 'string') {
        assertCleanText(f.value, `The form field '${shown(name)}'`);
      }
    }
  }
}

/** A field name as it can be shown in a message (the bad character itself replaced). */
const shown = (name: string) =>
  name.replaceAll('\0', '\ufffd').replace(LONE_SURROGATES, '\ufffd').slice(0, 100);

const badUrl = (message: string) => new HttpError(400, 'invalid_url', message);

interface Node {
  value: object;
  path: string;
  depth: number;
}

/**
 * Checks one JSON body without recursion (a deep body cannot exhaust the stack). Only objects and
 * arrays are queued; strings are checked where they are found, a field's path is built for
 * objects only (not for each of a long array's numbers).
 */
function checkBody(body: unknown): void {
  if (typeof body === 'string') {
    assertCleanText(body, 'The request body');
    return;
  }
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body)) return;
  const stack: Node[] = [{ value: body, path: '', depth: 0 }];
  const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  const visit = (inner: unknown, parent: Node, key: string | number) => {
    if (typeof inner === 'string') {
      const problem = textProblem(inner);
      if (problem) {
        const path = at(parent.path, key);
        throw new InvalidTextError(`The field '${path}'`, problem, path);
      }
    } else if (inner !== null && typeof inner === 'object') {
      if (parent.depth + 1 >= MAX_JSON_DEPTH) {
        throw new HttpError(
          400,
          'too_deep',
          `The request body nests deeper than ${MAX_JSON_DEPTH} levels (at '${at(parent.path, key)}').`,
        );
      }
      stack.push({ value: inner, path: at(parent.path, key), depth: parent.depth + 1 });
    }
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (Array.isArray(node.value)) {
      for (let i = 0; i < node.value.length; i++) visit(node.value[i], node, i);
      continue;
    }
    for (const [key, inner] of Object.entries(node.value)) {
      const keyProblem = textProblem(key);
      if (keyProblem) {
        const path = at(node.path, shown(key));
        throw new InvalidTextError(`The name of the field '${path}'`, keyProblem, path);
      }
      visit(inner, node, shown(key));
    }
  }
}

/** Decodes one part of a query string as a form would (`+` is a space); null when malformed. */
function decodeQueryPart(part: string): string | null {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The raw query string, each name and value decoded and checked against the rule. */
function checkQuery(url: string): void {
  const q = url.indexOf('?');
  if (q < 0) return;
  const query = url.slice(q + 1);
  if (!query) return;
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const name = decodeQueryPart(rawName);
    if (name === null) {
      throw badUrl(`The query string has a malformed %-escape in '${rawName.slice(0, 100)}'.`);
    }
    const where = `The query parameter '${shown(name)}'`;
    const value = decodeQueryPart(rawValue);
    if (value === null) throw badUrl(`${where} has a malformed %-escape.`);
    const nameProblem = textProblem(name);
    if (nameProblem) throw new InvalidTextError('A query parameter name', nameProblem);
    assertCleanText(value, where, shown(name));
  }
}

function checkParams(params: unknown): void {
  if (!params || typeof params !== 'object') return;
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    if (typeof value !== 'string') continue;
    if (name === '*') assertCleanText(value, 'The path');
    else assertCleanText(value, `The path parameter '${name}'`, name);
  }
}

/**
 * Fastify's own refusals of a URL before any route runs (a malformed %-escape in the path, a path
 * parameter over maxParamLength), in the api's `{ error, message }` form. Passed as the server's
 * `frameworkErrors`.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') {
    return reply.code(400).send({
      error: 'invalid_url',
      message: 'The address has a malformed %-escape (or one that is not UTF-8); check the link.',
    } satisfies ErrorBody);
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.code(414).send({
      error: 'uri_too_long',
      message: 'A part of the address is longer than any the api accepts.',
    } satisfies ErrorBody);
  }
  request.log.warn({ code: error.code }, 'request refused before routing');
  return reply
    .code(400)
    .send({ error: 'bad_request', message: 'This request could not be understood.' } satisfies ErrorBody);
}

/** Answers a refusal from a hook directly, `field` included (the error handler keeps to error and message). */
function refuse(reply: FastifyReply, err: unknown) {
  if (!(err instanceof HttpError)) throw err;
  const field = err instanceof InvalidTextError ? err.field : undefined;
  return reply
    .code(err.statusCode)
    .send({ error: err.code, message: err.message, ...(field ? { field } : {}) });
}

export const cleanInputPlugin = fp(async (app: FastifyInstance) => {
  // Path and query: before anything else of the route runs (its own onRequest hooks included).
  app.addHook('onRequest', async (request, reply) => {
    try {
      if (request.url.length > MAX_URL_LENGTH) {
        throw new HttpError(
          414,
          'uri_too_long',
          `The address is longer than ${MAX_URL_LENGTH} characters; send long values in the body.`,
        );
      }
      checkParams(request.params);
      checkQuery(request.url);
    } catch (err) {
      return refuse(reply, err);
    }
    // Cookies are ours to set: one a browser should never hold is as good as none.
    const cookies = request.cookies as Record<string, string | undefined> | undefined;
    if (cookies) {
      for (const [name, value] of Object.entries(cookies)) {
        if (textProblem(name) || (typeof value === 'string' && textProblem(value))) delete cookies[name];
      }
    }
  });
  // Bodies: after parsing, before the schema is checked.
  app.addHook('preValidation', async (request, reply) => {
    try {
      checkBody(request.body);
    } catch (err) {
      return refuse(reply, err);
    }
  });
});
