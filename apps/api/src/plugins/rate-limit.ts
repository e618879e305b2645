import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import ipaddr from 'ipaddr.js';
import { HttpError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Builds a check that throws a 429 `{ error, message }` with Retry-After when `key` is over its
     * limit. Checks built with the same name count together (same max and window required).
     */
    limiter: (options: {
      name: string;
      max: number;
      windowSeconds: number;
      key: (request: FastifyRequest) => string;
      message: (retryAfterSeconds: number) => string;
    }) => (request: FastifyRequest) => Promise<void>;
  }
}

const inWords = (seconds: number) =>
  seconds < 60
    ? `${seconds} second${seconds === 1 ? '' : 's'}`
    : `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? '' : 's'}`;

export const retryAfterWords = inWords;

/**
 * The key a per-address brake counts under: an IPv4 address as it is (an IPv4-mapped IPv6 address,
 * ::ffff:1.2.3.4, is that IPv4 address), an IPv6 address by its /64, the network one household or
 * one server is given (record 0071): rotating through the 2^64 addresses of one /64 is still one
 * client. Anything that does not parse (no address at all) counts as itself.
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const { parts } = parsed as ipaddr.IPv6;
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

/** The client's network, as every per-address limit keys it (see addressKey). */
export const networkOf = (request: FastifyRequest): string => addressKey(request.ip);

/**
 * The brake on guessing fan ids: reads of a fan's chat log and opens of its event stream share one
 * counter per address (a stream's 404 or 403 says as much about a fan id as a read does).
 */
export const fanReadLimiter = (app: FastifyInstance, perMinute: number) =>
  app.limiter({
    name: 'fan-read-ip',
    max: perMinute,
    windowSeconds: 60,
    key: networkOf,
    message: (seconds) =>
      `Too many chat reads from this network. Please wait ${inWords(seconds)} and try again.`,
  });

/**
 * Rate limits that routes opt into (none is global). Counters live in Redis when REDIS_URL is set,
 * so every api instance shares them; in memory otherwise.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { redisUrl?: string | undefined; nameSpace?: string }) => {
    let redis: Redis | undefined;
    if (opts.redisUrl) {
      // Fails fast with Redis down (a counter that cannot be read lets the request through, below)
      // rather than holding requests in ioredis's offline queue.
      redis = new Redis(opts.redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        connectTimeout: 1000,
        lazyConnect: false,
      });
      // One line when an outage starts and one when it ends, not one per reconnection attempt.
      let downSince: number | null = null;
      let errors = 0;
      redis.on('error', (err) => {
        errors++;
        if (downSince !== null) return;
        downSince = Date.now();
        app.log.warn(
          { reason: err.message },
          'rate-limit Redis connection lost: limits are skipped until it is back',
        );
      });
      redis.on('ready', () => {
        if (downSince === null) return;
        const downForMs = Date.now() - downSince;
        app.log.info({ downForMs, errors }, 'rate-limit Redis connection back');
        downSince = null;
        errors = 0;
      });
      app.addHook('onClose', async () => {
        await redis?.quit().catch(() => redis?.disconnect());
      });
    }
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, nameSpace: opts.nameSpace ?? 'fanpilot-rl:' } : {}),
      // A broken counter store must not take fan messages down with it.
      skipOnError: true,
    });

    // Limiters of one name share their counters (e.g. fan chat reads and fan event streams: one
    // brake per address on guessing fan ids), each with its own key function and words.
    const shared = new Map<
      string,
      { max: number; windowSeconds: number; check: ReturnType<typeof app.createRateLimit> }
    >();
    const keyOf = new WeakMap<FastifyRequest, string>();
    app.decorate('limiter', (options) => {
      let limit = shared.get(options.name);
      if (!limit) {
        limit = {
          max: options.max,
          windowSeconds: options.windowSeconds,
          check: app.createRateLimit({
            max: options.max,
            timeWindow: options.windowSeconds * 1000,
            keyGenerator: (request) => `${options.name}:${keyOf.get(request)}`,
            skipOnError: true,
          }),
        };
        shared.set(options.name, limit);
      } else if (limit.max !== options.max || limit.windowSeconds !== options.windowSeconds) {
        throw new Error(`rate limit '${options.name}' is already set up with other numbers`);
      }
      const { check } = limit;
      return async (request: FastifyRequest) => {
        keyOf.set(request, options.key(request));
        const result = await check(request);
        if (result.isAllowed || !result.isExceeded) return;
        const seconds = Math.max(1, result.ttlInSeconds);
        throw new HttpError(429, 'rate_limited', options.message(seconds), {
          'retry-after': String(seconds),
        });
      };
    });
  },
);
