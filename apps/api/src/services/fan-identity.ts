import { randomBytes } from 'node:crypto';
import { FAN_COOKIE, FAN_TOKEN_HEADER, FAN_TOKEN_PATTERN } from '@fanpilot/contracts';
import { hashToken } from '@fanpilot/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A year: the fan page keeps its fanId in localStorage for as long. */
const FAN_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The fan token an embedded chat sends as a header (the website widget's frame on another site,
 * which gets no cookie of ours when third-party cookies are blocked; the browser extension): the
 * same secret the fan cookie carries, made by the embed (32 random bytes) and kept where only that
 * browser on that site reads it (docs/decisions/0050-the-website-widget.md). A cross-site page
 * cannot send it: a custom header needs a CORS permission the api never gives.
 */
export function headerFanToken(request: FastifyRequest): string | null {
  const value = request.headers[FAN_TOKEN_HEADER];
  return typeof value === 'string' && FAN_TOKEN_PATTERN.test(value) ? value : null;
}

/** The fan token this browser holds: the embed's header, else its signed fan cookie, or null. */
export function readFanToken(request: FastifyRequest): string | null {
  const fromHeader = headerFanToken(request);
  if (fromHeader) return fromHeader;
  const raw = request.cookies[FAN_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

/** The hash of this browser's fan token, or null when it holds none. */
export function fanTokenHash(request: FastifyRequest): string | null {
  const token = readFanToken(request);
  return token ? hashToken(token) : null;
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
