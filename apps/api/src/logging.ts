import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Env } from './env.ts';

/** Paths pino blanks out wherever headers end up in a log line. */
const SECRET_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
];

/** Query parameters that carry credentials: the OAuth callback's code and state, pre-signed URLs. */
const SECRET_QUERY =
  /^(code|state|token|access_token|id_token|refresh_token|client_secret|x-amz-signature|x-amz-credential|x-amz-security-token)$/i;

/** The URL with the values of credential-bearing query parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  let changed = false;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {}
      if (eq < 0 || !SECRET_QUERY.test(decoded)) return part;
      changed = true;
      return `${name}=[Redacted]`;
    })
    .join('&');
  return changed ? `${url.slice(0, q)}?${query}` : url;
}

/**
 * The api's logger: one JSON object per line (pino), each line about a request with its `reqId`.
 * Headers are never logged (cookies, authorization), and credential query parameters are redacted.
 */
export function loggerOptions(env: Pick<Env, 'LOG_LEVEL'>): FastifyServerOptions['logger'] {
  return {
    level: env.LOG_LEVEL,
    redact: SECRET_PATHS,
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}

/**
 * The level of a request's one log line (docs/decisions/0038-landing-loads-only-what-it-shows.md).
 * Reads that went well (GET and HEAD answered 2xx or 3xx: the dashboard's polls, unchanged 304s,
 * pages and assets, and a signed-out read's 401) are routine and go to debug; what changed something
 * or went wrong is info
 * (4xx, writes) or error (5xx), so the terminal at the default level says what happened.
 */
export function requestLogLevel(method: string, statusCode: number): 'debug' | 'info' | 'error' {
  if (statusCode >= 500) return 'error';
  const read = method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
  // A read answered 401 is the signed-out visitor's "who am I?" (the landing page asks it): routine.
  if (statusCode >= 400) return read && statusCode === 401 ? 'debug' : 'info';
  return read ? 'debug' : 'info';
}
