import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  children,
  type Directive,
  locationsOf,
  matchLocation,
  NginxSyntaxError,
  parseNginxConf,
  proxyTarget,
  value,
} from './nginx-conf.ts';
import { readRepoFile, run, which } from './repo.ts';

const gatewayText = readRepoFile('infra/gateway/nginx.conf');
const gateway = parseNginxConf(gatewayText);
const http = children(gateway, 'http')[0]!;
const mainServer = children(http.block, 'server').find((s) =>
  children(s.block, 'listen').some((l) => /^(\S+:)?80$/.test(l.args[0]!)),
)!;
const composeServices = Object.keys(
  (parse(readRepoFile('docker-compose.yml')) as { services: Record<string, unknown> }).services,
);

/** Path on the one origin -> the compose service that must answer it. */
const ROUTES: [string, 'api' | 'fan-pwa' | 'dashboard'][] = [
  ['/api/auth/user', 'api'],
  ['/api', 'api'],
  ['/api/creators/alice/chat', 'api'],
  ['/auth/google', 'api'],
  ['/auth/google/callback', 'api'],
  ['/objects/uploads/a.png', 'api'],
  ['/healthz', 'api'],
  ['/readyz', 'api'],
  ['/pwa/alice', 'fan-pwa'],
  ['/pwa/alice/', 'fan-pwa'],
  ['/fanchat-mobile', 'fan-pwa'],
  ['/mobile-chat', 'fan-pwa'],
  ['/fan/assets/index-abc123.js', 'fan-pwa'],
  ['/fan/sw.js', 'fan-pwa'],
  ['/fan/manifest.webmanifest', 'fan-pwa'],
  ['/', 'dashboard'],
  ['/creator-signup', 'dashboard'],
  ['/admin/alice', 'dashboard'],
  ['/dashboard/alice', 'dashboard'],
  ['/assets/index-abc123.js', 'dashboard'],
  ['/apiary', 'dashboard'],
  ['/authors', 'dashboard'],
  ['/pwax', 'dashboard'],
  ['/fanatic', 'dashboard'],
  ['/no/such/page', 'dashboard'],
];

describe('nginx config reader', () => {
  it('rejects malformed configs', () => {
    expect(() => parseNginxConf('http { server { listen 80; }')).toThrow(NginxSyntaxError);
    expect(() => parseNginxConf('http { listen 80 }')).toThrow(NginxSyntaxError);
    expect(() => parseNginxConf('events { } }')).toThrow(NginxSyntaxError);
    expect(() => parseNginxConf('http { return 200 "ok; }')).toThrow(NginxSyntaxError);
  });
});

describe('infra/gateway/nginx.conf', () => {
  it('has one http block with the public server on port 80', () => {
    expect(children(gateway, 'http')).toHaveLength(1);
    expect(children(gateway, 'events')).toHaveLength(1);
    expect(mainServer).toBeDefined();
  });

  it('accepts request bodies up to 12m', () => {
    const limits = [
      value(http.block, 'client_max_body_size'),
      value(mainServer.block, 'client_max_body_size'),
    ];
    expect(limits.filter(Boolean).at(-1)).toBe('12m');
  });

  it.each(ROUTES)('sends %s to %s', (uri, service) => {
    const location = matchLocation(locationsOf(mainServer), uri);
    expect(location, `a location for ${uri}`).toBeDefined();
    const target = proxyTarget(mainServer, location!);
    expect(target, `proxy_pass for ${uri}`).toBeDefined();
    const url = new URL(target!);
    expect(url.hostname).toBe(service);
    expect(url.port).toBe(service === 'api' ? '3000' : '8080');
    // No URI part: the path reaches the upstream unchanged.
    expect(url.pathname === '/' && !target!.endsWith('/')).toBe(true);
  });

  it('proxies only to compose services', () => {
    for (const location of locationsOf(mainServer)) {
      const target = proxyTarget(mainServer, location);
      if (!target) continue;
      expect(composeServices).toContain(new URL(target).hostname);
    }
  });

  it('looks upstreams up at request time through a resolver', () => {
    const usesVariables = locationsOf(mainServer).some((l) =>
      value(l.directive.block, 'proxy_pass')?.includes('$'),
    );
    if (usesVariables)
      expect(value(http.block, 'resolver') ?? value(mainServer.block, 'resolver')).toBeTruthy();
  });

  it('forwards client address, scheme and request id to every upstream', () => {
    const headers = new Map(
      children(mainServer.block, 'proxy_set_header').map((d) => [d.args[0]!.toLowerCase(), d.args[1]!]),
    );
    expect(headers.get('x-forwarded-for')).toBeDefined();
    expect(headers.get('x-forwarded-proto')).toBeDefined();
    expect(headers.get('x-request-id')).toBeDefined();
    expect(headers.get('host')).toBe('$host');
    // A location with its own proxy_set_header would silently drop all of the server's.
    for (const location of locationsOf(mainServer)) {
      expect(children(location.directive.block, 'proxy_set_header'), location.pattern).toEqual([]);
    }
  });

  it('keeps a request id the client sent and makes one otherwise', () => {
    const header = children(mainServer.block, 'proxy_set_header').find(
      (d) => d.args[0]!.toLowerCase() === 'x-request-id',
    )!;
    const map = children(http.block, 'map').find((m) => m.args[1] === header.args[1]);
    expect(map?.args[0]).toBe('$http_x_request_id');
    const entries = new Map((map?.block ?? []).map((d: Directive) => [d.name, d.args[0]]));
    expect(entries.get('default')).toBe('$http_x_request_id');
    expect(entries.get('')).toBe('$request_id');
  });
});

describe.each(['dashboard', 'fan-pwa'])('infra/docker/web/%s.conf', (app) => {
  const conf = parseNginxConf(readRepoFile('infra/docker/web', `${app}.conf`));
  const server = children(conf, 'server')[0]!;

  it('listens on 8080 with a health probe', () => {
    expect(value(server.block, 'listen')).toBe('8080');
    expect(matchLocation(locationsOf(server), '/healthz')?.modifier).toBe('=');
  });

  it("falls back to the app's index.html for client-side routes", () => {
    const index = app === 'fan-pwa' ? '/fan/index.html' : '/index.html';
    const paths = app === 'fan-pwa' ? ['/pwa/alice', '/fanchat-mobile', '/mobile-chat'] : ['/admin/alice'];
    for (const uri of paths) {
      const location = matchLocation(locationsOf(server), uri)!;
      expect(value(location.directive.block, 'try_files')?.split(' ').at(-1), uri).toBe(index);
    }
  });
});

// ---- with a real nginx, when this machine has one ---------------------------------------------------

const nginx =
  which('nginx') ?? ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find((p) => run(p, ['-v']).status === 0);

/** A free TCP port on loopback. */
const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

/** Makes a config runnable here: this user, temp paths in `dir`, loopback ports instead of services. */
function localise(text: string, dir: string, replacements: [string | RegExp, string][]) {
  let out = text.replace(/^\s*user\s+[^;]+;/m, `user ${userInfo().username};`);
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${path.join(dir, `${t}-temp`)};`)
    .join(' ');
  out = out.replace(/^http\s*\{/m, `http { ${temps}`);
  // Logs go to files: /dev/stdout and /dev/stderr cannot be opened when they are sockets.
  out = out.replaceAll('/dev/stderr', path.join(dir, 'error.log'));
  out = out.replaceAll('/dev/stdout', path.join(dir, 'access.log'));
  for (const [from, to] of replacements) out = out.replaceAll(from, to);
  return out;
}

function nginxArgs(dir: string, conf: string, globals = '') {
  const g = `pid ${path.join(dir, 'nginx.pid')}; ${globals}`.trim();
  return ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log'), '-g', g];
}

const STORE_ORIGIN = 'http://127.0.0.1:9000';

describe.skipIf(!nginx)('with nginx on this machine', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fanpilot-gateway-'));
  const stubs: Server[] = [];
  let proc: ChildProcess | undefined;
  let gatewayPort = 0;

  /** An upstream that answers with who it is and what it was sent. */
  async function stub(name: string) {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        // Like the api, which sets its own security headers.
        if (req.url?.includes('upstream-headers=1')) {
          res.setHeader('content-security-policy', "default-src 'none'");
          res.setHeader('x-frame-options', 'SAMEORIGIN');
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ name, url: req.url, headers: req.headers }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stubs.push(server);
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  beforeAll(async () => {
    const [api, fan, dashboard] = [await stub('api'), await stub('fan-pwa'), await stub('dashboard')];
    gatewayPort = await freePort();
    const healthPort = await freePort();
    const conf = path.join(dir, 'nginx.conf');
    writeFileSync(
      conf,
      localise(gatewayText, dir, [
        ['http://api:3000', `http://127.0.0.1:${api}`],
        ['http://fan-pwa:8080', `http://127.0.0.1:${fan}`],
        ['http://dashboard:8080', `http://127.0.0.1:${dashboard}`],
        [/listen 80 default_server;/g, `listen 127.0.0.1:${gatewayPort} default_server;`],
        ['listen 127.0.0.1:8081;', `listen 127.0.0.1:${healthPort};`],
        // What the nginx image's template step fills in (docker-compose.yml).
        [`\${FANPILOT_STORE_ORIGIN}`, STORE_ORIGIN],
        // Short timeouts, so the slow-client tests take seconds.
        ['client_header_timeout 10s;', 'client_header_timeout 2s;'],
        ['client_body_timeout 15s;', 'client_body_timeout 2s;'],
      ]),
    );
    proc = spawn(nginx!, nginxArgs(dir, conf, 'daemon off;'), { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`http://127.0.0.1:${healthPort}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the gateway did not start');
  });

  afterAll(async () => {
    if (proc?.pid && proc.exitCode === null) {
      const exited = new Promise((resolve) => proc!.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    }
    await Promise.all(stubs.map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes `nginx -t`', () => {
    const r = run(nginx!, ['-t', ...nginxArgs(dir, path.join(dir, 'nginx.conf'))]);
    expect(r.status, r.stderr).toBe(0);
  });

  const get = async (uri: string, init?: RequestInit) => {
    const res = await fetch(`http://127.0.0.1:${gatewayPort}${uri}`, init);
    return {
      status: res.status,
      body: (await res.json()) as { name: string; url: string; headers: Record<string, string> },
    };
  };

  it.each(ROUTES)('routes %s to %s', async (uri, service) => {
    const { body } = await get(`${uri}?q=1`);
    expect(body.name).toBe(service);
    expect(body.url).toBe(`${uri}?q=1`);
  });

  it('sets the forwarding headers, keeping a request id and replacing a forged client address', async () => {
    const { body } = await get('/api/auth/user', {
      headers: { 'x-request-id': 'trace-123', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(body.headers['x-request-id']).toBe('trace-123');
    expect(body.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(body.headers['x-forwarded-proto']).toBe('http');
    const fresh = await get('/api/auth/user');
    expect(fresh.body.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sets the security headers on the static apps, and leaves the api its own', async () => {
    for (const uri of ['/', '/creator-signup', '/pwa/alice', '/fan/sw.js', '/api/auth/user']) {
      const res = await fetch(`http://127.0.0.1:${gatewayPort}${uri}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, uri).toContain("script-src 'self';");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("worker-src 'self'");
      expect(csp).toContain("manifest-src 'self'");
      expect(csp).toContain(`img-src 'self' data: blob: ${STORE_ORIGIN};`);
      expect(csp).toContain(`connect-src 'self' ${STORE_ORIGIN};`);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('strict-transport-security')).toBeNull();
      await res.arrayBuffer();
    }
    // Over https (a TLS proxy in front says so), HSTS too.
    const https = await fetch(`http://127.0.0.1:${gatewayPort}/`, {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(https.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    await https.arrayBuffer();
    // An upstream that sets its own (the api) keeps them, not doubled.
    const api = await fetch(`http://127.0.0.1:${gatewayPort}/api/x?upstream-headers=1`);
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(api.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    await api.arrayBuffer();
  });

  /** Sends a POST's headers, then a body byte every `everyMs`; resolves when nginx ends it. */
  const slowBody = (everyMs: number) =>
    new Promise<{ answer: string; seconds: number }>((resolve) => {
      const started = Date.now();
      const socket = connect(gatewayPort, '127.0.0.1');
      let answer = '';
      let timer: NodeJS.Timeout | undefined;
      socket.on('connect', () => {
        socket.write(
          'POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n',
        );
        timer = setInterval(() => socket.write('x'), everyMs);
      });
      socket.on('data', (d) => {
        answer += d.toString();
      });
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ answer, seconds: (Date.now() - started) / 1000 });
      });
      socket.on('error', () => {});
    });

  it('cuts off a client that trickles its body or never finishes its headers; others go on', async () => {
    const slow = slowBody(3_000);
    const headers = new Promise<number>((resolve) => {
      const started = Date.now();
      const socket = connect(gatewayPort, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n'));
      socket.resume();
      socket.on('close', () => resolve((Date.now() - started) / 1000));
      socket.on('error', () => {});
    });
    const ok = await get('/api/auth/user');
    expect(ok.status).toBe(200);
    const { answer, seconds } = await slow;
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    expect(seconds).toBeLessThan(6);
    expect(await headers).toBeLessThan(6);
  });

  it('accepts a 1 MB body and refuses one over 12 MB', async () => {
    const small = await fetch(`http://127.0.0.1:${gatewayPort}/api/upload`, {
      method: 'POST',
      body: new Uint8Array(1024 * 1024),
    });
    expect(small.status).toBe(200);
    await small.arrayBuffer();
    const big = await fetch(`http://127.0.0.1:${gatewayPort}/api/upload`, {
      method: 'POST',
      body: new Uint8Array(13 * 1024 * 1024),
    }).catch(() => undefined);
    if (big) expect(big.status).toBe(413);
  });
});

describe.skipIf(!nginx)('static web servers with nginx on this machine', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fanpilot-web-'));
  const procs: ChildProcess[] = [];
  const ports: Record<string, number> = {};

  beforeAll(async () => {
    const site = (app: string, files: Record<string, string>) => {
      for (const [file, content] of Object.entries(files)) {
        const target = path.join(dir, app, 'www', file);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, content);
      }
    };
    site('dashboard', { 'index.html': 'dashboard index', 'assets/app.js': 'dashboard js' });
    // What vite.precompress.ts writes beside each asset.
    mkdirSync(path.join(dir, 'dashboard', 'www', 'assets'), { recursive: true });
    writeFileSync(path.join(dir, 'dashboard', 'www', 'assets', 'big.js'), 'const x = 1;\n'.repeat(500));
    writeFileSync(path.join(dir, 'dashboard', 'www', 'assets', 'big.js.gz'), gzipSync('precompressed'));
    site('fan-pwa', {
      'fan/index.html': 'fan index',
      'fan/assets/app.js': 'fan js',
      'fan/sw.js': 'sw',
    });
    for (const app of ['dashboard', 'fan-pwa']) {
      const port = await freePort();
      ports[app] = port;
      const server = readRepoFile('infra/docker/web', `${app}.conf`)
        .replace('listen 8080;', `listen 127.0.0.1:${port};`)
        .replace('root /srv/www;', `root ${path.join(dir, app, 'www')};`);
      const conf = path.join(dir, app, 'nginx.conf');
      writeFileSync(
        conf,
        localise(`user nobody;\nevents {}\nhttp {\ninclude /etc/nginx/mime.types;\n${server}\n}\n`, dir, []),
      );
      procs.push(spawn(nginx!, nginxArgs(path.join(dir, app), conf, 'daemon off;'), { stdio: 'ignore' }));
    }
    for (const port of Object.values(ports)) {
      for (let i = 0; i < 100; i++) {
        const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (i === 99) throw new Error('a static server did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });

  afterAll(async () => {
    for (const proc of procs) {
      if (proc.exitCode !== null) continue;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (app: string, uri: string) => {
    const res = await fetch(`http://127.0.0.1:${ports[app]}${uri}`);
    return { status: res.status, body: await res.text(), headers: res.headers };
  };

  it('dashboard: index.html for its routes, the same page with 404 on any other path, long-cached assets', async () => {
    for (const uri of ['/', '/admin/alice', '/admin', '/dashboard/alice/', '/creator-signup', '/?error=x']) {
      const page = await get('dashboard', uri);
      expect(page.status, uri).toBe(200);
      expect(page.body, uri).toBe('dashboard index');
    }
    expect((await get('dashboard', '/admin/alice')).headers.get('cache-control')).toBe('no-cache');
    // Any other path: the router's not-found page ('404 Page Not Found'), with status 404.
    for (const uri of ['/no/such/page', '/dashboard/alice/extra', '/pricing']) {
      const page = await get('dashboard', uri);
      expect(page.status, uri).toBe(404);
      expect(page.body, uri).toBe('dashboard index');
      expect(page.headers.get('cache-control'), uri).toBe('no-cache');
    }
    const asset = await get('dashboard', '/assets/app.js');
    expect(asset.body).toBe('dashboard js');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await get('dashboard', '/assets/missing.js')).status).toBe(404);
  });

  it('sends the precompressed .gz the build wrote to browsers that accept gzip', async () => {
    const res = await fetch(`http://127.0.0.1:${ports.dashboard}/assets/big.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch decodes it: the body is the .gz file's content, so nginx did not compress on the fly.
    expect(await res.text()).toBe('precompressed');
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it("fan-pwa: the fan app's index.html for its pages, its assets and service worker under /fan/", async () => {
    for (const uri of ['/pwa/alice', '/fanchat-mobile', '/mobile-chat', '/fan/']) {
      const page = await get('fan-pwa', uri);
      expect(page.status, uri).toBe(200);
      expect(page.body, uri).toBe('fan index');
    }
    const asset = await get('fan-pwa', '/fan/assets/app.js');
    expect(asset.body).toBe('fan js');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const sw = await get('fan-pwa', '/fan/sw.js');
    expect(sw.headers.get('service-worker-allowed')).toBe('/');
    expect(sw.headers.get('cache-control')).toBe('no-cache');
  });
});
