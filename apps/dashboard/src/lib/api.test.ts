import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, getQueryFn, pathFromQueryKey, serverMessage } from './api.ts';

const fetchMock = vi.fn<typeof fetch>();

function answer(status: number, body: string, statusText = '') {
  fetchMock.mockResolvedValueOnce(new Response(body || null, { status, statusText }));
}

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends credentials and a JSON body with a JSON content type', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(200, '{"ok":true}');
    await expect(apiRequest('POST', '/api/toggle-status', { creator: 'mina' })).resolves.toEqual({
      ok: true,
    });
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/api/toggle-status');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"creator":"mina"}' });
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('fails with "status: response text" and exposes the server message', async () => {
    vi.stubGlobal('fetch', fetchMock);
    const body = '{"error":"invalid_upload_url","message":"Invalid upload URL format"}';
    answer(400, body, 'Bad Request');
    const error = await apiRequest('POST', '/api/creator-signup', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`400: ${body}`);
    expect((error as ApiError).status).toBe(400);
    expect(serverMessage(error)).toBe('Invalid upload URL format');
  });

  it('falls back to the status text when the body is empty', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(502, '', 'Bad Gateway');
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('502: Bad Gateway');
  });

  it('has no server message when the body is not the api error shape', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(500, 'upstream exploded', 'Internal Server Error');
    const error = await apiRequest('GET', '/api/x').catch((e: unknown) => e);
    expect((error as Error).message).toBe('500: upstream exploded');
    expect(serverMessage(error)).toBeUndefined();
  });
});

describe('getQueryFn', () => {
  it('builds the path from the key segments joined with a slash', () => {
    expect(pathFromQueryKey(['/api/creators/username', 'mina', 'status'])).toBe(
      '/api/creators/username/mina/status',
    );
  });

  it('answers null on 401 when asked to', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(401, '{"error":"unauthorized","message":"Please sign in to continue."}');
    await expect(getQueryFn({ on401: 'returnNull' })({ queryKey: ['/api/auth/user'] })).resolves.toBeNull();
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ credentials: 'include' });
  });

  it('treats 401 as an error by default', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(401, '{"error":"unauthorized","message":"Please sign in to continue."}');
    await expect(getQueryFn({ on401: 'throw' })({ queryKey: ['/api/auth/user'] })).rejects.toThrow(/^401: /);
  });
});
