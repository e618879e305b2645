import type { ErrorBody } from '@fanpilot/contracts';

/** A non-OK answer from the api. `message` is `${status}: ${body text or status text}` (SPEC section 8). */
export class ApiError extends Error {
  readonly status: number;
  /** The api's `{ error, message }` body, when it sent one. */
  readonly body: ErrorBody | null;

  constructor(status: number, statusText: string, responseText: string) {
    super(apiErrorMessage(status, statusText, responseText));
    this.name = 'ApiError';
    this.status = status;
    this.body = parseErrorBody(responseText);
  }
}

export function apiErrorMessage(status: number, statusText: string, responseText: string): string {
  return `${status}: ${responseText || statusText}`;
}

export function parseErrorBody(responseText: string): ErrorBody | null {
  if (!responseText) return null;
  try {
    const body: unknown = JSON.parse(responseText);
    if (typeof body !== 'object' || body === null) return null;
    const { error, message } = body as Record<string, unknown>;
    return typeof error === 'string' && typeof message === 'string' ? { error, message } : null;
  } catch {
    return null;
  }
}

/** The message a person can read from the server, if the failure carried one. */
export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.body?.message : undefined;
}

export function isApiStatus(error: unknown, status: number): boolean {
  return error instanceof ApiError && error.status === status;
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, text);
}

async function readJson<T>(response: Response): Promise<T> {
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** Calls the api with the session cookie, a JSON body when given, and reads the JSON answer. */
export async function apiRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers:
      body === undefined
        ? { Accept: 'application/json' }
        : { 'Content-Type': 'application/json', Accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await throwIfNotOk(response);
  return readJson<T>(response);
}

/** A query's path: its key segments joined with a slash (SPEC section 7). */
export function pathFromQueryKey(queryKey: readonly unknown[]): string {
  return queryKey.map(String).join('/');
}

/** A GET for React Query; with `on401: 'returnNull'` a 401 answers null instead of failing. */
export function getQueryFn<T>({ on401 }: { on401: 'returnNull' | 'throw' }) {
  return async ({ queryKey }: { queryKey: readonly unknown[] }): Promise<T | null> => {
    const response = await fetch(pathFromQueryKey(queryKey), {
      credentials: 'include',
      headers: { Accept: 'application/json' },
    });
    if (on401 === 'returnNull' && response.status === 401) return null;
    await throwIfNotOk(response);
    return readJson<T>(response);
  };
}
