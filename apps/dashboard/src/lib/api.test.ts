import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, serverMessage } from './api.ts';
import { currentUserQuery } from './queries.ts';

const fetchMock = vi.fn<typeof fetch>();

function answer(status: number, body: string, statusText = '') {
  fetchMock.mockResolvedValueOnce(new Response(body || null, { status, statusText }));
}

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('the dashboard api client', () => {
  it('sends credentials and a JSON body with a JSON content type to the call address', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(200, '{"success":true,"isOnline":true,"statusText":"Online"}');
    await expect(api.call('toggleStatus', { body: { creator: 'mina' } })).resolves.toMatchObject({
      isOnline: true,
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
    const error = await api
      .call('creatorSignup', { body: { chatbotName: 'x', profileImageUrl: 'y' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`400: ${body}`);
    expect((error as ApiError).status).toBe(400);
    expect(serverMessage(error)).toBe('Invalid upload URL format');
  });

  it('falls back to the status text when the body is empty', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(502, '', 'Bad Gateway');
    await expect(api.call('currentUser', {})).rejects.toThrow('502: Bad Gateway');
  });

  it('has no server message when the body is not the api error shape', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(500, 'upstream exploded', 'Internal Server Error');
    const error = await api.call('currentUser', {}).catch((e: unknown) => e);
    expect((error as Error).message).toBe('500: upstream exploded');
    expect(serverMessage(error)).toBeUndefined();
  });

  it('checks each answer against its schema: an answer of another shape fails instead of being cast', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(200, '{"publicKey":42}');
    await expect(api.call('pushKey', {})).rejects.toThrow();
  });
});

describe('currentUserQuery', () => {
  it('answers null when signed out (401)', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(401, '{"error":"unauthorized","message":"Please sign in to continue."}');
    const queryFn = currentUserQuery.queryFn as () => Promise<unknown>;
    await expect(queryFn()).resolves.toBeNull();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/user');
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ credentials: 'include' });
  });

  it('fails on other errors', async () => {
    vi.stubGlobal('fetch', fetchMock);
    answer(500, 'boom', 'Internal Server Error');
    const queryFn = currentUserQuery.queryFn as () => Promise<unknown>;
    await expect(queryFn()).rejects.toThrow(/^500: /);
  });
});
