import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN_DIR, parseDotenv, type RunResult, readRepoFile, repoPath, run, which } from './repo.ts';

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  depends_on?: Record<string, { condition: string }>;
  env_file?: string | string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  command?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
  container_name?: string;
}

const composeText = readRepoFile('docker-compose.yml');
const compose = parse(composeText) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;
const service = (name: string): Service => {
  const s = services[name];
  if (!s) throw new Error(`docker-compose.yml has no service "${name}"`);
  return s;
};

/** A scratch project directory: the compose file, a .env made from .env.example, and infra/. */
const scratch = mkdtempSync(path.join(tmpdir(), 'fanpilot-compose-'));
copyFileSync(repoPath('docker-compose.yml'), path.join(scratch, 'docker-compose.yml'));
copyFileSync(repoPath('.env.example'), path.join(scratch, '.env'));
symlinkSync(repoPath('infra'), path.join(scratch, 'infra'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** docker compose v2 (plugin) and docker-compose v1 (Debian's package), whichever are here. */
function composeCommands(): { label: string; command: string; args: string[] }[] {
  const found: { label: string; command: string; args: string[] }[] = [];
  const docker = which('docker');
  if (docker && run(docker, ['compose', 'version']).status === 0) {
    found.push({ label: 'docker compose', command: docker, args: ['compose'] });
  }
  const v1 = which('docker-compose');
  if (v1) found.push({ label: 'docker-compose', command: v1, args: [] });
  return found;
}

const explain = (r: RunResult) => `${r.error?.message ?? ''}\n${r.stdout}\n${r.stderr}`;

describe('docker-compose.yml validators', () => {
  const dclint = path.join(BIN_DIR, 'dclint');

  it('passes dclint (schema and lint rules of .dclintrc.yaml)', () => {
    const r = run(dclint, ['docker-compose.yml', '-c', '.dclintrc.yaml', '--max-warnings', '0']);
    expect(r.status, explain(r)).toBe(0);
  });

  it('dclint rejects a broken compose file (the validator is really running)', () => {
    const broken = path.join(scratch, 'broken.yml');
    writeFileSync(
      broken,
      composeText.replace('    restart: unless-stopped\n', '    restartt: unless-stopped\n'),
    );
    const r = run(dclint, [broken, '-c', repoPath('.dclintrc.yaml')]);
    expect(r.status, explain(r)).not.toBe(0);
  });

  const commands = composeCommands();
  it.skipIf(commands.length === 0)('passes `docker compose config -q` with .env from .env.example', () => {
    for (const c of commands) {
      const r = run(c.command, [...c.args, 'config', '-q'], { cwd: scratch });
      expect(r.status, `${c.label} config -q:${explain(r)}`).toBe(0);
    }
  });

  it.skipIf(commands.length === 0)('resolves every app setting from .env', () => {
    const c = commands[0]!;
    const r = run(c.command, [...c.args, 'config'], { cwd: scratch });
    expect(r.status, explain(r)).toBe(0);
    const resolved = parse(r.stdout) as {
      services: Record<string, { environment?: Record<string, unknown> }>;
    };
    const env = resolved.services.api?.environment ?? {};
    expect(env.DATABASE_URL).toBe('postgres://fanpilot:fanpilot@postgres:5432/fanpilot');
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(env.S3_ENDPOINT).toBe('http://minio:9000');
    // The api listens on 3000 inside the network whatever PORT the gateway publishes.
    expect(String(env.PORT)).toBe('3000');
    // The api's own default is 127.0.0.1 (`pnpm start`); in its container it must listen on every
    // interface for the gateway to reach it, whatever .env says.
    expect(env.HOST).toBe('0.0.0.0');
  });
});

describe('docker-compose.yml services', () => {
  it('has every part of the stack', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'api',
        'dashboard',
        'fan-pwa',
        'gateway',
        'worker',
        'migrate',
        'minio',
        'minio-setup',
        'postgres',
        'redis',
      ].sort(),
    );
  });

  it('runs PostgreSQL with pgvector, Redis 7 and MinIO, each with a healthcheck and a named volume', () => {
    expect(service('postgres').image).toBe('pgvector/pgvector:pg16');
    expect(service('postgres').healthcheck?.test.join(' ')).toContain('pg_isready');
    expect(service('redis').image).toMatch(/^redis:7/);
    expect(service('redis').healthcheck?.test.join(' ')).toContain('ping');
    expect(service('minio').image).toMatch(/minio\/minio/);
    expect(service('minio').healthcheck?.test.length).toBeGreaterThan(0);
    for (const name of ['postgres', 'redis', 'minio']) {
      const named = (service(name).volumes ?? []).map((v) => v.split(':')[0]!);
      expect(
        named.some((v) => v in compose.volumes),
        `${name} keeps its data in a named volume`,
      ).toBe(true);
    }
  });

  it('declares every named volume it uses', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const volume of s.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('.') || source.startsWith('/')) continue;
        expect(compose.volumes, `volume "${source}" of ${name}`).toHaveProperty(source);
      }
    }
  });

  it('mounts only files that exist in the repository', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const volume of s.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (!source.startsWith('./')) continue;
        expect(existsSync(repoPath(source)), `${name} mounts ${source}`).toBe(true);
      }
    }
  });

  it('builds from Dockerfiles that exist', () => {
    for (const [name, s] of Object.entries(services)) {
      if (!s.build) continue;
      expect(s.build.context, `${name} builds from the repository root`).toBe('.');
      expect(existsSync(repoPath(s.build.dockerfile)), `${name}: ${s.build.dockerfile}`).toBe(true);
    }
    expect(service('dashboard').build?.args?.APP).toBe('dashboard');
    expect(service('fan-pwa').build?.args?.APP).toBe('fan-pwa');
  });

  it('creates the bucket with a one-shot minio-setup after MinIO is healthy', () => {
    const setup = service('minio-setup');
    expect(setup.image).toMatch(/minio\/mc/);
    expect(setup.restart).toBe('no');
    expect(setup.depends_on?.minio?.condition).toBe('service_healthy');
    const setupScript = readRepoFile('infra/minio/setup.sh');
    expect(setupScript).toMatch(/mc mb --ignore-existing/);
    // Unused uploads expire: pending profile images and knowledge uploads, a day after upload.
    const rules = JSON.parse(/mc ilm import [^\n]*<<JSON\n([\s\S]*?)\nJSON/.exec(setupScript)![1]!) as {
      Rules: { Status: string; Filter: { Prefix: string }; Expiration: { Days: number } }[];
    };
    expect(rules.Rules.map((r) => [r.Filter.Prefix, r.Expiration.Days, r.Status])).toEqual([
      ['uploads/pending/', 1, 'Enabled'],
      ['knowledge-uploads/', 1, 'Enabled'],
    ]);
  });

  it('migrates with a one-shot service on the api image', () => {
    const migrate = service('migrate');
    expect(migrate.image).toBe(service('api').image);
    expect(migrate.build?.dockerfile).toBe('infra/docker/api.Dockerfile');
    expect(migrate.restart).toBe('no');
    expect(migrate.command?.join(' ')).toContain('dist/migrate-cli.js');
    expect(migrate.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(existsSync(repoPath('packages/db/src/migrate-cli.ts'))).toBe(true);
  });

  it.each(['api', 'worker'])('starts %s once the stores are healthy and set up', (name) => {
    expect(service(name).depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      'minio-setup': { condition: 'service_completed_successfully' },
      migrate: { condition: 'service_completed_successfully' },
    });
  });

  it.each(['migrate', 'api', 'worker'])('gives %s the whole .env', (name) => {
    expect([service(name).env_file].flat()).toContain('.env');
  });

  it('runs the worker with replicas and no fixed container name', () => {
    const worker = service('worker');
    expect(worker.deploy?.replicas).toBeGreaterThanOrEqual(1);
    for (const [name, s] of Object.entries(services)) {
      expect(s.container_name, `${name} must not pin a container name`).toBeUndefined();
    }
  });

  it('publishes only the gateway on $PORT, with infra/gateway/nginx.conf', () => {
    const gateway = service('gateway');
    expect(gateway.ports).toEqual([`\${PORT:-3000}:80`]);
    // Through the nginx image's template step, which fills in FANPILOT_STORE_ORIGIN only.
    expect(gateway.volumes).toContain(
      './infra/gateway/nginx.conf:/etc/nginx/templates/nginx.conf.template:ro',
    );
    const environment = gateway.environment as Record<string, string>;
    expect(environment.NGINX_ENVSUBST_OUTPUT_DIR).toBe('/etc/nginx');
    expect(environment.NGINX_ENVSUBST_FILTER).toBe('^FANPILOT_');
    expect(environment.FANPILOT_STORE_ORIGIN).toBe(`\${S3_PUBLIC_ENDPOINT:-http://localhost:9000}`);
    // The api believes X-Forwarded-For from the compose network only (TRUST_PROXY).
    expect((service('api').environment as Record<string, string>).TRUST_PROXY).toBe(
      `\${TRUST_PROXY:-uniquelocal}`,
    );
    expect(gateway.healthcheck?.test.length).toBeGreaterThan(0);
    for (const name of ['api', 'dashboard', 'fan-pwa']) {
      expect(gateway.depends_on?.[name]?.condition).toBe('service_healthy');
      expect(service(name).ports, `${name} is reached through the gateway`).toBeUndefined();
    }
  });

  it('takes every interpolated variable from .env.example', () => {
    const listed = parseDotenv(readRepoFile('.env.example'));
    const code = composeText.replace(/^\s*#.*$/gm, '');
    const used = new Set([...code.matchAll(/(?<!\$)\$\{([A-Z0-9_]+)/g)].map((m) => m[1]!));
    expect([...used].filter((name) => !listed.has(name))).toEqual([]);
  });
});
