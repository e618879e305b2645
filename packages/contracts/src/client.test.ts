import { describe, expect, it } from 'vitest';
import { checkAnswer } from './calls.ts';
import {
  ApiError,
  clientIn,
  createApiClient,
  isApiStatus,
  parseErrorBody,
  patternIn,
  serverMessage,
  urlIn,
  urlOf,
} from './client.ts';
import { creatorRoutes, fanRoutes, routes } from './routes.ts';

type Seen = { url: string; init: RequestInit };

function fakeFetch(status: number, body: string, headers: Record<string, string> = {}) {
  const seen: Seen[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return new Response(body || null, { status, statusText: status === 502 ? 'Bad Gateway' : '', headers });
  }) as unknown as typeof fetch;
  return { seen, fetchImpl };
}

describe('urlOf', () => {
  it('fills the path parameters, encoded, and keeps query values in order without empty ones', () => {
    expect(
      urlOf('conversation', { username: 'mina', fanId: 'mobile_fan:1' }, { before: null, limit: 50 }),
    ).toBe('/api/creators/username/mina/fans/mobile_fan%3A1/conversation?limit=50');
    expect(
      urlOf('conversations', { username: 'mina' }, { filter: 'waiting', q: '', cursor: 'abc_1', limit: 25 }),
    ).toBe('/api/creators/username/mina/conversations?filter=waiting&cursor=abc_1&limit=25');
    expect(urlOf('ask')).toBe('/api/ask');
  });

  it('refuses to build an address with a parameter missing', () => {
    expect(() => urlOf('chatbot', {})).toThrow(/path parameter id/);
  });
});

describe('createApiClient', () => {
  it('sends the call with its method, a JSON body and the cookies, and answers the JSON', async () => {
    const { seen, fetchImpl } = fakeFetch(200, JSON.stringify({ success: true, isOnline: true }));
    const client = createApiClient({ fetch: fetchImpl });
    await expect(client.call('toggleStatus', { body: { creator: 'mina' } })).resolves.toEqual({
      success: true,
      isOnline: true,
    });
    expect(seen[0]!.url).toBe('/api/toggle-status');
    expect(seen[0]!.init.method).toBe('POST');
    expect(seen[0]!.init.credentials).toBe('include');
    expect(seen[0]!.init.body).toBe(JSON.stringify({ creator: 'mina' }));
    expect((seen[0]!.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('throws ApiError with the status, the readable message, the body and Retry-After', async () => {
    const { fetchImpl } = fakeFetch(429, JSON.stringify({ error: 'rate_limited', message: 'Slow down.' }), {
      'retry-after': '7',
    });
    const error = await createApiClient({ fetch: fetchImpl })
      .call('ask', { body: { creator: 'mina', message: 'hi', fanId: 'mobile_fan_1' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('429: {"error":"rate_limited","message":"Slow down."}');
    expect((error as ApiError).retryAfterSeconds).toBe(7);
    expect(serverMessage(error)).toBe('Slow down.');
    expect(isApiStatus(error, 429)).toBe(true);
  });

  it('says the status text when the body is empty', async () => {
    const { fetchImpl } = fakeFetch(502, '');
    await expect(createApiClient({ fetch: fetchImpl }).call('currentUser', {})).rejects.toThrow(
      '502: Bad Gateway',
    );
  });

  it('checks the answer with the call schema when asked, and refuses one that does not match', async () => {
    const check = checkAnswer;
    const good = fakeFetch(200, JSON.stringify({ publicKey: 'BPk' }));
    await expect(createApiClient({ fetch: good.fetchImpl, check }).call('pushKey', {})).resolves.toEqual({
      publicKey: 'BPk',
    });
    const bad = fakeFetch(200, JSON.stringify({ publicKey: 42 }));
    await expect(createApiClient({ fetch: bad.fetchImpl, check }).call('pushKey', {})).rejects.toThrow();
  });
});

describe('route tables', () => {
  it('every call is in exactly one of the fan and creator tables, and `routes` holds them all', () => {
    const fan = Object.keys(fanRoutes);
    const creator = Object.keys(creatorRoutes);
    expect(fan.filter((name) => creator.includes(name))).toEqual([]);
    expect(Object.keys(routes).sort()).toEqual([...fan, ...creator].sort());
  });

  it("a client of the fan's table knows only the fan's calls", async () => {
    const { fetchImpl } = fakeFetch(200, '{}');
    const client = clientIn(fanRoutes, { fetch: fetchImpl });
    await expect(client.call('pushKey', {})).resolves.toEqual({});
    // A creator call is not in its table (the types refuse it too).
    await expect(
      (client as unknown as ReturnType<typeof createApiClient>).call('currentUser', {}),
    ).rejects.toThrow('currentUser is not a call of this client');
    expect(patternIn(fanRoutes, 'fanChatlog')).toBe('/api/chatlog/fan/[^/]+');
    expect(urlIn(fanRoutes, 'fanEvents', { fanId: 'f 1' }, { creator: 'mina' })).toBe(
      '/api/events/fans/f%201?creator=mina',
    );
  });
});

describe('error bodies', () => {
  it('reads a body whose code is in the closed union, and no other', () => {
    expect(parseErrorBody(JSON.stringify({ error: 'site_not_allowed', message: 'No.' }))).toEqual({
      error: 'site_not_allowed',
      message: 'No.',
    });
    expect(parseErrorBody(JSON.stringify({ error: 'made_up_code', message: 'No.' }))).toBeNull();
    expect(parseErrorBody('not json')).toBeNull();
  });
});
