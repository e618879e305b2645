import { FAN_COOKIE } from '@fanpilot/contracts';
import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedFanTokenHash, lookupsPlugin } from '../../src/plugins/lookups.ts';
import type { ChangeFeed } from '../../src/services/changes.ts';

/** A feed that is heard and never changes: enough for the cookie cache, which reads no table. */
const quietFeed = {
  isLive: true,
  currentEpoch: 0,
  onReset: () => () => {},
  subscribe: () => () => {},
} as unknown as ChangeFeed;

/** An api instance with this cookie secret, answering with the fan token hash it reads. */
async function apiWithSecret(secret: string) {
  const app = Fastify();
  await app.register(cookie, { secret });
  app.decorate('changes', quietFeed);
  await app.register(lookupsPlugin);
  app.get('/hash', async (request) => ({ hash: cachedFanTokenHash(request) }));
  await app.ready();
  return app;
}

describe('lookups cached on the change feed', () => {
  const apps: Awaited<ReturnType<typeof apiWithSecret>>[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it("keep each instance's cookie hashes to itself: a cookie signed for one is refused by another", async () => {
    const a = await apiWithSecret('secret-of-a-0123456789abcdef');
    const b = await apiWithSecret('secret-of-b-0123456789abcdef');
    apps.push(a, b);
    const signed = a.signCookie('fan-token');
    const ask = async (app: typeof a) =>
      (await app.inject({ method: 'GET', url: '/hash', cookies: { [FAN_COOKIE]: signed } })).json() as {
        hash: string | null;
      };
    // A reads (and caches) it; B, with another secret, still checks the signature itself.
    const first = await ask(a);
    expect(first.hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await ask(a)).toEqual(first);
    expect(await ask(b)).toEqual({ hash: null });
    // And the other way round: B's refusal is not A's.
    expect(await ask(a)).toEqual(first);
  });
});
