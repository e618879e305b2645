import { randomBytes } from 'node:crypto';
import {
  FAN_COOKIE,
  FAN_TOKEN_HEADER,
  FAN_TOKEN_PATTERN,
  WIDGET_FAN_COOKIE,
  WIDGET_SITE_HEADER,
} from '@fanpilot/contracts';
import { hashToken } from '@fanpilot/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A year: the fan page keeps its fanId in localStorage for as long. */
const FAN_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The fan token an embed sends as a header (the browser extension; the widget's frame only where
 * the browser keeps no partitioned cookie): the same secret the fan cookie carries, made by the
 * embed (32 random bytes) and kept where only that embed reads it
 * (docs/decisions/0072-the-widget-keeps-no-secret-in-the-host-page.md). A cross-site page cannot
 * send it: a custom header needs a CORS permission the api never gives.
 */
export function headerFanToken(request: FastifyRequest): string | null {
  const value = request.headers[FAN_TOKEN_HEADER];
  return typeof value === 'string' && FAN_TOKEN_PATTERN.test(value) ? value : null;
}

/**
 * Whether `request` comes from the website widget's frame (it names its site in X-Widget-Site, a
 * header no other site's page may send us). Such a call's fan is the widget's partitioned cookie,
 * never the fan app's.
 */
export const isWidgetRequest = (request: FastifyRequest): boolean =>
  typeof request.headers[WIDGET_SITE_HEADER] === 'string';

/** The fan cookie this request's fan is read from and issued to: the widget's or the fan app's. */
export const fanCookieOf = (request: FastifyRequest): string =>
  isWidgetRequest(request) ? WIDGET_FAN_COOKIE : FAN_COOKIE;

/** The fan token this browser holds: the embed's header, else its signed fan cookie, or null. */
export function readFanToken(request: FastifyRequest): string | null {
  const fromHeader = headerFanToken(request);
  if (fromHeader) return fromHeader;
  const raw = request.cookies[fanCookieOf(request)];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value && FAN_TOKEN_PATTERN.test(unsigned.value) ? unsigned.value : null;
}

/** The hash of this browser's fan token, or null when it holds none. */
export function fanTokenHash(request: FastifyRequest): string | null {
  const token = readFanToken(request);
  return token ? hashToken(token) : null;
}

/**
 * Sets `token` as the widget frame's fan cookie: httpOnly and `SameSite=None; Secure; Partitioned`
 * (CHIPS), the one kind of cookie a browser blocking third-party cookies still keeps for a frame,
 * one jar per embedding site. Secure always: browsers take it from http://localhost too.
 */
export function setWidgetFanCookie(reply: FastifyReply, token: string): void {
  reply.setCookie(WIDGET_FAN_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'none',
    secure: true,
    partitioned: true,
    signed: true,
    maxAge: FAN_COOKIE_MAX_AGE_SECONDS,
  });
}

/**
 * This browser's fan token, issuing one when it holds none: the fan app's cookie (httpOnly,
 * SameSite=Lax, signed), or in the widget's frame its partitioned cookie. One token per browser
 * (per embedding site in the widget); each fan conversation stores only its hash.
 */
export function ensureFanToken(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = readFanToken(request);
  if (existing) return existing;
  const token = randomBytes(32).toString('base64url');
  if (isWidgetRequest(request)) {
    setWidgetFanCookie(reply, token);
    return token;
  }
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
