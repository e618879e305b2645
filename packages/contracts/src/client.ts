import type { z } from 'zod';
import type { Calls } from './calls.ts';
import type { ErrorBody } from './error-body.ts';
import { isErrorCode } from './errors.ts';
import { type CallName, routes } from './routes.ts';

/** A table of calls (routes.ts): each one's method and path. */
export type RouteTable = { readonly [N in CallName]?: { readonly method: string; readonly path: string } };
/** The calls a table holds. */
export type NameIn<T extends RouteTable> = keyof T & CallName;

// The web apps' client of the api: a call is named, never spelled out, so its method and path come
// from the one table the server registers (routes.ts), and its request and response types from the
// call's schemas (calls.ts). It loads no schema itself: an app that wants answers checked at run time
// (the dashboard) passes `check`; the fan app keeps its first screen free of zod. The `…In`
// functions take the table to look calls up in, so the fan app loads only `fanRoutes`; `urlOf`,
// `pathPattern` and `createApiClient` look them up in every call's.

type SchemaOf<N extends CallName> = Calls[N]['schema'];
type InputPart<N extends CallName, K extends string> =
  SchemaOf<N> extends { [P in K]: infer S extends z.ZodType } ? z.input<S> : never;

/** What a call takes: path parameters, query, body (each where the call has one), and extras. */
export type CallInput<N extends CallName> = ([InputPart<N, 'params'>] extends [never]
  ? { params?: undefined }
  : { params: InputPart<N, 'params'> }) &
  ([InputPart<N, 'querystring'>] extends [never]
    ? { query?: undefined }
    : {
        query?: Partial<
          Record<keyof InputPart<N, 'querystring'>, string | number | boolean | null | undefined>
        >;
      }) &
  ([InputPart<N, 'body'>] extends [never] ? { body?: undefined } : { body: InputPart<N, 'body'> }) & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };

/** What a call answers (its 200 schema's output), or unknown for calls that answer bytes or streams. */
export type CallOutput<N extends CallName> =
  SchemaOf<N> extends { response: { 200: infer R extends z.ZodType } } ? z.output<R> : unknown;

type QueryValue = string | number | boolean | null | undefined;

/**
 * The address of a call: its path with the parameters filled in (encoded), and a query string of the
 * given values in their order (empty, null and undefined ones left out). For links, images and event
 * streams; requests go through `ApiClient.call`.
 */
export function urlIn<T extends RouteTable>(
  table: T,
  name: NameIn<T>,
  params?: Record<string, string | number> | undefined,
  query?: Record<string, QueryValue> | undefined,
): string {
  const path = routeOf(table, name).path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined || value === '') throw new Error(`${name}: the path parameter ${key} is missing`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * A pattern matching a call's path (its parameters any one segment), without anchors: for code that
 * recognises requests, e.g. a service worker choosing what to keep for offline use.
 */
export function patternIn<T extends RouteTable>(table: T, name: NameIn<T>): string {
  return routeOf(table, name)
    .path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/:[A-Za-z]+/g, '[^/]+');
}

/** A non-OK answer. `message` is `${status}: ${body text or status text}` (docs/product.md#contractual-texts). */
export class ApiError extends Error {
  /** The api's `{ error, message }` body, when it sent one. */
  readonly body: ErrorBody | null;
  /** Retry-After, in seconds, when the api asked to wait. */
  readonly retryAfterSeconds: number | null;

  constructor(
    readonly status: number,
    statusText: string,
    responseText: string,
    headers?: Headers,
  ) {
    super(`${status}: ${responseText || statusText}`);
    this.name = 'ApiError';
    this.body = parseErrorBody(responseText);
    this.retryAfterSeconds = retryAfter(headers?.get('retry-after') ?? null);
  }
}

export function parseErrorBody(responseText: string): ErrorBody | null {
  if (!responseText) return null;
  try {
    const body: unknown = JSON.parse(responseText);
    if (typeof body !== 'object' || body === null) return null;
    const { error, message } = body as Record<string, unknown>;
    return isErrorCode(error) && typeof message === 'string' ? { error, message } : null;
  } catch {
    return null;
  }
}

function retryAfter(raw: string | null): number | null {
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds));
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, Math.round((date - Date.now()) / 1000));
}

/** The words of an error answer, when the failure carried one. */
export const serverMessage = (error: unknown): string | undefined =>
  error instanceof ApiError ? (error.body?.message ?? undefined) : undefined;

export const isApiStatus = (error: unknown, status: number): boolean =>
  error instanceof ApiError && error.status === status;

export interface ApiClientOptions {
  /** Checks (and may reshape) an answer's body against the call's schema; throws when it does not match. */
  check?: (name: CallName, status: number, body: unknown) => unknown;
  /** The fetch to use (tests pass one). */
  fetch?: typeof fetch;
}

export interface ApiAnswer<T> {
  body: T;
  status: number;
  headers: Headers;
}

export interface ApiClient<Name extends CallName = CallName> {
  /** Makes the call and answers its body (null when empty). Non-OK answers throw ApiError. */
  call<N extends Name>(name: N, input: CallInput<N>): Promise<CallOutput<N>>;
  /** The same, with the answer's status and headers. */
  send<N extends Name>(name: N, input: CallInput<N>): Promise<ApiAnswer<CallOutput<N>>>;
}

function routeOf(table: RouteTable, name: CallName): { method: string; path: string } {
  const route = table[name];
  if (!route) throw new Error(`${name} is not a call of this client`);
  return route;
}

/** A client of the calls in `table`. */
export function clientIn<T extends RouteTable>(
  table: T,
  options: ApiClientOptions = {},
): ApiClient<NameIn<T>> {
  const send = async <N extends NameIn<T>>(
    name: N,
    input: CallInput<N>,
  ): Promise<ApiAnswer<CallOutput<N>>> => {
    const { method } = routeOf(table, name);
    const { params, query, body, headers, signal } = input as {
      params?: Record<string, string | number>;
      query?: Record<string, QueryValue>;
      body?: unknown;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    };
    const requestHeaders: Record<string, string> = { Accept: 'application/json', ...headers };
    if (body !== undefined) requestHeaders['Content-Type'] = 'application/json';
    const response = await (options.fetch ?? fetch)(urlIn(table, name, params, query), {
      method,
      credentials: 'include',
      headers: requestHeaders,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
    const text = await response.text().catch(() => '');
    if (!response.ok) throw new ApiError(response.status, response.statusText, text, response.headers);
    let parsed: unknown = text ? JSON.parse(text) : null;
    if (options.check && text) parsed = options.check(name, response.status, parsed);
    return { body: parsed as CallOutput<N>, status: response.status, headers: response.headers };
  };
  return {
    send,
    call: async (name, input) => (await send(name, input)).body,
  };
}

/** The address of any call (see urlIn). */
export function urlOf<N extends CallName>(
  name: N,
  params?: Record<string, string | number> | undefined,
  query?: Record<string, QueryValue> | undefined,
): string {
  return urlIn(routes, name, params, query);
}

/** A pattern matching any call's path (see patternIn). */
export function pathPattern(name: CallName): string {
  return patternIn(routes, name);
}

/** A client of every call. */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  return clientIn(routes, options);
}
