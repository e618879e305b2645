import { createHash, randomBytes } from 'node:crypto';
import { FAN_COOKIE } from '@fanpilot/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A year: the fan page keeps its fanId in localStorage for as long. */
const FAN_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export const hashFanToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The fan token this browser holds in its signed fan cookie, or null. */
export function readFanToken(request: FastifyRequest): string | null {
  const raw = request.cookies[FAN_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

/** The hash of this browser's fan token, or null when it holds none. */
export function fanTokenHash(request: FastifyRequest): string | null {
  const token = readFanToken(request);
  return token ? hashFanToken(token) : null;
}

/**
 * This browser's fan token, issuing one (httpOnly, SameSite=Lax, signed) when it holds none.
 * One token per browser; each fan conversation stores only its hash.
 */
export function ensureFanToken(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = readFanToken(request);
  if (existing) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(FAN_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    signed: true,
    maxAge: FAN_COOKIE_MAX_AGE_SECONDS,
  });
  return token;
}

/** A readable name for a fan who gave none: 'Fan' and the last characters of their id. */
export function defaultFanName(fanKey: string): string {
  const tail = fanKey.replace(/[^A-Za-z0-9]/g, '').slice(-4);
  return tail ? `Fan ${tail}` : 'Fan';
}
