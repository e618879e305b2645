import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';
import { permanent, transient } from './errors.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardedFetchOptions {
  /** Host names that may resolve to non-public addresses (INGEST_ALLOWED_PRIVATE_HOSTS). */
  allowedPrivateHosts: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** DNS resolution; injected by tests to make a name resolve to a chosen address. */
  lookup?: Lookup;
  signal?: AbortSignal;
  accept?: string;
}

export interface FetchedResource {
  /** The URL that finally answered, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

export const USER_AGENT = 'FanpilotBot/1.0 (+knowledge ingestion; respects size and time limits)';

export const systemLookup: Lookup = async (hostname) => {
  const all = await dns.lookup(hostname, { all: true, order: 'ipv4first' });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Names answered from a fixed map (INGEST_DNS_OVERRIDES), everything else by the system. */
export function lookupWithOverrides(overrides: Record<string, string>): Lookup | undefined {
  if (Object.keys(overrides).length === 0) return undefined;
  return async (hostname) => {
    const address = overrides[hostname.toLowerCase()];
    if (address) return [{ address, family: address.includes(':') ? 6 : 4 }];
    return systemLookup(hostname);
  };
}

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits when it is IPv4-compatible
 * (`::/96`, e.g. `::7f00:1`) or NAT64 (`64:ff9b::/96`, RFC 6052); undefined for any other.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const compatible = p[0] === 0 && p[1] === 0;
  const nat64 = p[0] === 0x64 && p[1] === 0xff9b;
  if (!(compatible || nat64) || p[2] !== 0 || p[3] !== 0 || p[4] !== 0 || p[5] !== 0) return undefined;
  const [hi = 0, lo = 0] = [p[6], p[7]];
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/**
 * True only for ordinary public unicast addresses. Private, loopback, link-local (cloud metadata
 * at 169.254.169.254), carrier-grade NAT, unique-local, multicast, reserved and unspecified
 * addresses are not; IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`) and NAT64
 * (`64:ff9b::a.b.c.d`) IPv6 are judged as the IPv4 address they carry. Other IPv6 ranges that
 * tunnel IPv4 (6to4, Teredo, local-use NAT64) are not unicast to ipaddr.js and so refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv6') {
    const v4 = embeddedIPv4(parsed as ipaddr.IPv6);
    // `::` and `::1` stay unspecified and loopback.
    if (
      v4 &&
      (parsed as ipaddr.IPv6).range() !== 'unspecified' &&
      (parsed as ipaddr.IPv6).range() !== 'loopback'
    )
      return v4.range() === 'unicast';
  }
  return parsed.range() === 'unicast';
}

const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** Only http(s) links without credentials; a reason a person understands otherwise. */
export function parseWebUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw permanent('This is not a valid web address.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw permanent('Only http:// and https:// web addresses can be added.');
  }
  if (url.username || url.password) {
    throw permanent('Web addresses with a user name or password cannot be added.');
  }
  url.hash = '';
  return url;
}

/**
 * Resolves the URL's host and checks every address it resolves to, before any connection is made.
 * Returns the address to connect to, so the check and the connection use the same answer (no DNS
 * rebinding between them).
 */
export async function resolveAllowedAddress(
  url: URL,
  options: Pick<GuardedFetchOptions, 'allowedPrivateHosts' | 'lookup'>,
): Promise<ResolvedAddress> {
  const host = bareHost(url);
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch (err) {
      throw permanent(`The site ${host} could not be found.`, err);
    }
  }
  if (addresses.length === 0) throw permanent(`The site ${host} could not be found.`);
  const allowed = options.allowedPrivateHosts.includes(host);
  if (!allowed && addresses.some((a) => !isPublicAddress(a.address))) {
    throw permanent(
      `The address ${url.host} points to a private or internal network, which cannot be added.`,
    );
  }
  const v4 = addresses.find((a) => a.family === 4);
  return v4 ?? addresses[0]!;
}

function describeStatus(status: number, url: URL): Error {
  const where = url.host;
  if (status === 404 || status === 410) return permanent(`The page was not found (${status}) on ${where}.`);
  if (status === 401 || status === 403) return permanent(`The page on ${where} is not public (${status}).`);
  if (status === 429 || status >= 500)
    return transient(`The site ${where} is unavailable right now (${status}). It will be retried.`);
  return permanent(`The page on ${where} answered with status ${status}.`);
}

function decoded(stream: Readable, encoding: string | undefined): Readable {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return stream.pipe(zlib.createGunzip());
    case 'deflate':
      return stream.pipe(zlib.createInflate());
    case 'br':
      return stream.pipe(zlib.createBrotliDecompress());
    default:
      return stream;
  }
}

/**
 * GET over http(s) with the SSRF policy applied to the first URL and to every redirect (followed by
 * hand), and limits on time and size (counted after decompression, so a compressed bomb stops early).
 */
export async function guardedFetch(raw: string, options: GuardedFetchOptions): Promise<FetchedResource> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  let url = parseWebUrl(raw);
  for (let hop = 0; ; hop++) {
    const target = await resolveAllowedAddress(url, options);
    if (signal.aborted) throw transient('The page took too long to answer. It will be retried.');
    const response = await request(url, target, options, signal);
    if (response.status >= 300 && response.status < 400 && response.location) {
      response.stream.resume();
      if (hop >= options.maxRedirects) throw permanent('The page redirects too many times.');
      let next: URL;
      try {
        next = new URL(response.location, url);
      } catch {
        throw permanent('The page redirects to an invalid address.');
      }
      url = parseWebUrl(next.toString());
      continue;
    }
    if (response.status < 200 || response.status >= 300) {
      response.stream.resume();
      throw describeStatus(response.status, url);
    }
    const declared = Number(response.contentLength);
    if (Number.isFinite(declared) && declared > options.maxBytes && !response.contentEncoding) {
      response.stream.destroy();
      throw tooLarge(options.maxBytes);
    }
    const body = await readLimited(
      decoded(response.stream, response.contentEncoding),
      options.maxBytes,
      signal,
    );
    return { url: url.toString(), status: response.status, contentType: response.contentType, body };
  }
}

const tooLarge = (max: number) =>
  permanent(`The page is larger than the ${Math.round(max / 1024 / 1024)} MB limit.`);

interface RawResponse {
  status: number;
  location: string | undefined;
  contentType: string;
  contentEncoding: string | undefined;
  contentLength: string | undefined;
  stream: Readable;
}

/**
 * Keep-alive connections, one pool per checked address: a sitemap's pages, or several pages of one
 * site, reuse a connection (and its TLS session) instead of opening one a page. A pooled connection
 * only ever goes to the address it was opened to, which passed the SSRF check; every request still
 * resolves and checks its host first, so a name that now resolves elsewhere is refused before any
 * reuse. Idle connections close after 2 s; at most MAX_POOLS addresses are kept.
 */
const MAX_POOLS = 64;
const pools = new Map<string, http.Agent>();
function agentFor(secure: boolean, target: ResolvedAddress): http.Agent {
  const key = `${secure ? 'https' : 'http'}|${target.address}`;
  let agent = pools.get(key);
  if (agent) {
    // Most recently used last, so the oldest is the one let go.
    pools.delete(key);
    pools.set(key, agent);
    return agent;
  }
  // Idle for 2 s at most: well under the keep-alive timeouts sites use (5 s and up).
  const options = { keepAlive: true, maxSockets: 4, maxFreeSockets: 4, timeout: 2_000 };
  agent = secure ? new https.Agent(options) : new http.Agent(options);
  pools.set(key, agent);
  if (pools.size > MAX_POOLS) {
    const [oldest, old] = pools.entries().next().value as [string, http.Agent];
    pools.delete(oldest);
    old.destroy();
  }
  return agent;
}

function request(
  url: URL,
  target: ResolvedAddress,
  options: GuardedFetchOptions,
  signal: AbortSignal,
  retried = false,
): Promise<RawResponse> {
  const secure = url.protocol === 'https:';
  const host = bareHost(url);
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: {
          host: url.host,
          'user-agent': USER_AGENT,
          accept:
            options.accept ??
            'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
        // Connect to the address that was checked, never to a fresh DNS answer.
        lookup: (_hostname, opts, callback) => {
          if ((opts as { all?: boolean }).all) {
            (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
          } else {
            (callback as (e: null, a: string, f: number) => void)(null, target.address, target.family);
          }
        },
        ...(secure && !ipaddr.isValid(host) ? { servername: host } : {}),
        signal,
        agent: agentFor(secure, target),
      },
      (res) => {
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          contentType: String(res.headers['content-type'] ?? ''),
          contentEncoding: res.headers['content-encoding'],
          contentLength: res.headers['content-length'],
          stream: res,
        });
      },
    );
    req.on('error', (err: Error & { code?: string }) => {
      // A kept-alive connection the site closed just as it was reused: once more, on a new one.
      if (req.reusedSocket && err.code === 'ECONNRESET' && !retried && !signal.aborted) {
        request(url, target, options, signal, true).then(resolve, reject);
        return;
      }
      if (signal.aborted) reject(transient('The page took too long to answer. It will be retried.', err));
      else reject(transient(`The site ${url.host} could not be reached. It will be retried.`, err));
    });
    req.end();
  });
}

async function readLimited(stream: Readable, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      total += buf.length;
      if (total > maxBytes) {
        stream.destroy();
        throw tooLarge(maxBytes);
      }
      parts.push(buf);
    }
  } catch (err) {
    if (err instanceof Error && err.name === 'IngestError') throw err;
    if (signal.aborted) throw transient('The page took too long to answer. It will be retried.', err);
    throw transient('The page could not be read completely. It will be retried.', err);
  }
  return Buffer.concat(parts);
}
