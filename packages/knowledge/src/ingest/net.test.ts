import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { type LoopbackServer, startSite } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestError } from './errors.ts';
import { type GuardedFetchOptions, guardedFetch, isPublicAddress, type Lookup } from './net.ts';

const base: GuardedFetchOptions = {
  allowedPrivateHosts: [],
  timeoutMs: 2_000,
  maxBytes: 64 * 1024,
  maxRedirects: 3,
};

/** A lookup that must never be asked for a connection: it answers as a hostile DNS would. */
const resolvesTo =
  (address: string): Lookup =>
  async () => [{ address, family: address.includes(':') ? 6 : 4 }];

async function refusal(promise: Promise<unknown>): Promise<IngestError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(IngestError);
  return err as IngestError;
}

describe('address policy', () => {
  it.each([
    ['127.0.0.1', false],
    ['127.8.9.10', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00:ec2::254', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:127.0.0.1', false],
    ['224.0.0.1', false],
    // IPv4-compatible, IPv4-mapped and NAT64 forms are judged as the IPv4 address they carry.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::a00:1', false],
    ['::a9fe:a9fe', false],
    ['::ffff:7f00:1', false],
    ['::ffff:a9fe:a9fe', false],
    ['::ffff:0:7f00:1', false],
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::10.0.0.1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b:1::a00:1', false],
    ['2002:7f00:1::1', false],
    ['2001::1', false],
    ['64:ff9b::93.184.216.34', true],
    ['::ffff:93.184.216.34', true],
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it.each(['[::7f00:1]', '[::ffff:7f00:1]', '[64:ff9b::a00:1]', '[::127.0.0.1]'])(
    'refuses http://%s/ before connecting',
    async (host) => {
      const err = await refusal(guardedFetch(`http://${host}/`, base));
      expect(err.message).toMatch(/private or internal network/);
    },
  );

  it.each(['::7f00:1', '::ffff:7f00:1', '64:ff9b::a00:1'])(
    'refuses a name that resolves to %s',
    async (address) => {
      const err = await refusal(
        guardedFetch('http://example.test/', { ...base, lookup: resolvesTo(address) }),
      );
      expect(err.message).toMatch(/private or internal network/);
    },
  );
});

describe('guardedFetch', () => {
  let site: LoopbackServer;
  const localhost = () => `http://localhost:${site.port}`;
  const allowLocalhost = { ...base, allowedPrivateHosts: ['localhost'] };
  beforeAll(async () => {
    site = await startSite({
      '/ok': { body: '<p>hello</p>' },
      '/to-metadata': { status: 301, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
      '/loop': { status: 302, headers: { location: '/loop' } },
      '/big': { body: Buffer.alloc(200 * 1024, 'a') },
      '/bomb': {
        headers: { 'content-encoding': 'gzip', 'content-type': 'text/html' },
        body: gzipSync(Buffer.alloc(20 * 1024 * 1024, ' ')),
      },
      '/slow': { delayMs: 5_000, body: 'late' },
      '/missing-page': { status: 404, body: 'gone' },
      '/busy': { status: 503, body: 'busy' },
    });
  });
  afterAll(async () => {
    await site.close();
  });

  it.each([
    ['http://127.0.0.1/'],
    ['http://10.0.0.1/'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://[::1]/'],
    ['http://[::ffff:10.0.0.1]/'],
    ['http://2130706433/'],
    ['http://0x7f.0.0.1/'],
  ])('refuses %s before connecting', async (url) => {
    const err = await refusal(guardedFetch(url, base));
    expect(err.permanent).toBe(true);
    expect(err.reason).toMatch(/private or internal network/);
  });

  it.each([['10.0.0.1'], ['169.254.169.254'], ['127.0.0.1'], ['::1']])(
    'refuses a name that resolves to %s (DNS checked before connecting)',
    async (address) => {
      const err = await refusal(
        guardedFetch('http://innocent.example/page', { ...base, lookup: resolvesTo(address) }),
      );
      expect(err.reason).toMatch(/private or internal network/);
    },
  );

  it('refuses a name when any of its addresses is private', async () => {
    const lookup: Lookup = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    const err = await refusal(guardedFetch('http://mixed.example/', { ...base, lookup }));
    expect(err.reason).toMatch(/private or internal network/);
  });

  it('refuses other schemes and credentials in the URL', async () => {
    expect((await refusal(guardedFetch('file:///etc/passwd', base))).reason).toMatch(/http/);
    expect((await refusal(guardedFetch('ftp://example.com/x', base))).reason).toMatch(/http/);
    expect((await refusal(guardedFetch('http://user:pw@example.com/', base))).reason).toMatch(/user name/);
  });

  it('fetches an allowed private host', async () => {
    const res = await guardedFetch(`${localhost()}/ok`, allowLocalhost);
    expect(res.body.toString()).toBe('<p>hello</p>');
    expect(res.contentType).toMatch(/text\/html/);
  });

  it('refuses the loopback address itself when only the name localhost is allowed', async () => {
    const err = await refusal(guardedFetch(`${site.url}/ok`, allowLocalhost));
    expect(err.reason).toMatch(/private or internal network/);
  });

  it('checks every redirect: an allowed host redirecting to a private address is refused', async () => {
    const hitsBefore = site.hits.get('/ok') ?? 0;
    const redirecting = await startSite({
      '/hop': { status: 302, headers: { location: `${site.url}/ok` } },
    });
    try {
      const err = await refusal(guardedFetch(`http://localhost:${redirecting.port}/hop`, allowLocalhost));
      expect(err.reason).toMatch(/private or internal network/);
      expect(site.hits.get('/ok') ?? 0).toBe(hitsBefore);
    } finally {
      await redirecting.close();
    }
    const meta = await refusal(guardedFetch(`${localhost()}/to-metadata`, allowLocalhost));
    expect(meta.reason).toMatch(/private or internal network/);
  });

  it("reuses a connection for a site's next page, and only to the address that was checked", async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.end('<p>page</p>'));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const p of ['/a', '/b', '/c']) {
        const page = await guardedFetch(`http://localhost:${port}${p}`, allowLocalhost);
        expect(page.body.toString()).toBe('<p>page</p>');
      }
      expect(connections).toBe(1);
      // The same name, now resolving to a private address it is not allowed: refused, no reuse.
      const err = await refusal(
        guardedFetch(`http://innocent.example:${port}/d`, { ...base, lookup: resolvesTo('127.0.0.1') }),
      );
      expect(err.reason).toMatch(/private or internal network/);
      expect(connections).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('tries once more on a new connection when a kept-alive one was closed under it', async () => {
    const server = createServer((_req, res) => res.end('fine'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect((await guardedFetch(`http://localhost:${port}/1`, allowLocalhost)).body.toString()).toBe('fine');
      // The site drops its idle connections without a word (as a server past its keep-alive timeout).
      let dropped = 0;
      server.removeAllListeners('request');
      server.on('request', (req, res) => {
        if (dropped++ === 0) req.socket.destroy();
        else res.end('fine again');
      });
      expect((await guardedFetch(`http://localhost:${port}/2`, allowLocalhost)).body.toString()).toBe(
        'fine again',
      );
      expect(dropped).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('stops redirect loops', async () => {
    expect((await refusal(guardedFetch(`${localhost()}/loop`, allowLocalhost))).reason).toMatch(
      /redirects too many times/,
    );
  });

  it('limits the size, counted after decompression', async () => {
    expect((await refusal(guardedFetch(`${localhost()}/big`, allowLocalhost))).reason).toMatch(/larger than/);
    const bomb = await refusal(
      guardedFetch(`${localhost()}/bomb`, { ...allowLocalhost, maxBytes: 1024 * 1024 }),
    );
    expect(bomb.reason).toMatch(/larger than/);
  });

  it('limits the time, as a retryable failure', async () => {
    const err = await refusal(guardedFetch(`${localhost()}/slow`, { ...allowLocalhost, timeoutMs: 300 }));
    expect(err.permanent).toBe(false);
    expect(err.reason).toMatch(/too long/);
  });

  it('tells missing pages (permanent) from busy sites (retried)', async () => {
    expect((await refusal(guardedFetch(`${localhost()}/missing-page`, allowLocalhost))).permanent).toBe(true);
    expect((await refusal(guardedFetch(`${localhost()}/busy`, allowLocalhost))).permanent).toBe(false);
  });
});
