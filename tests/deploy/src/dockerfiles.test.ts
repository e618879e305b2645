import { existsSync, readdirSync } from 'node:fs';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { describe, expect, it } from 'vitest';
import { readRepoFile, repoPath } from './repo.ts';

const KEYWORDS = new Set([
  'ADD',
  'ARG',
  'CMD',
  'COPY',
  'ENTRYPOINT',
  'ENV',
  'EXPOSE',
  'FROM',
  'HEALTHCHECK',
  'LABEL',
  'ONBUILD',
  'RUN',
  'SHELL',
  'STOPSIGNAL',
  'USER',
  'VOLUME',
  'WORKDIR',
]);

interface Stage {
  name: string | null;
  image: string;
  instructions: Instruction[];
}

interface Parsed {
  file: string;
  text: string;
  instructions: Instruction[];
  stages: Stage[];
}

function load(file: string): Parsed {
  const text = readRepoFile(file);
  const dockerfile = DockerfileParser.parse(text);
  const instructions = dockerfile.getInstructions();
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.getKeyword() === 'FROM') {
      const from = dockerfile
        .getFROMs()
        .find((f) => f.getRange().start.line === instruction.getRange().start.line);
      stages.push({ name: from?.getBuildStage() ?? null, image: from?.getImage() ?? '', instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { file, text, instructions, stages };
}

/** The web image's build argument, as written in its Dockerfile. */
const APP_ARG = `\${APP}`;
const args = (i: Instruction) => i.getArgumentsContent() ?? '';
/** The instruction's whole text after its keyword, flags (--from=…) included. */
const text = (i: Instruction) => i.getTextContent().slice(i.getKeyword().length).trim();
const all = (p: Parsed, keyword: string) => p.instructions.filter((i) => i.getKeyword() === keyword);
const runs = (p: Parsed) => all(p, 'RUN').map(args).join('\n');

const packageManager = (JSON.parse(readRepoFile('package.json')) as { packageManager: string })
  .packageManager;
const workspacePackages = new Set(
  ['apps', 'packages']
    .flatMap((dir) => readdirSync(repoPath(dir)).map((name) => `${dir}/${name}/package.json`))
    .filter((file) => existsSync(repoPath(file)))
    .map((file) => (JSON.parse(readRepoFile(file)) as { name: string }).name),
);

const images = [
  { file: 'infra/docker/api.Dockerfile', pkg: '@fanpilot/api', entry: 'dist/server.js', port: '3000' },
  {
    file: 'infra/docker/worker.Dockerfile',
    pkg: '@fanpilot/worker',
    entry: 'dist/main.js',
    port: '3100',
  },
  { file: 'infra/docker/web.Dockerfile', pkg: `@fanpilot/\${APP}`, entry: undefined, port: '8080' },
];

describe.each(images)('$file', ({ file, pkg, entry, port }) => {
  const p = load(file);
  const final = p.stages.at(-1)!;
  const stageNames = new Set(p.stages.map((s) => s.name).filter(Boolean));

  it('parses into known instructions', () => {
    expect(p.instructions.length).toBeGreaterThan(0);
    for (const i of p.instructions) {
      expect(KEYWORDS.has(i.getKeyword()), `line ${i.getRange().start.line + 1}: ${i.getKeyword()}`).toBe(
        true,
      );
    }
  });

  it('is multi-stage, on Node 24 wherever Node runs', () => {
    expect(p.stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of p.stages) {
      if (stageNames.has(stage.image)) continue; // FROM an earlier stage
      if (/^(docker\.io\/)?(library\/)?node(:|@|$)/.test(stage.image)) {
        expect(stage.image, `stage ${stage.name}`).toMatch(/^(docker\.io\/)?(library\/)?node:24/);
      }
    }
    expect(p.stages.some((s) => /^node:24/.test(s.image))).toBe(true);
  });

  it('copies between stages only from stages that exist', () => {
    for (const copy of all(p, 'COPY')) {
      const from = /--from=(\S+)/.exec(text(copy))?.[1];
      if (from) expect(stageNames.has(from), `COPY --from=${from}`).toBe(true);
    }
  });

  it('copies from the build context only files that exist', () => {
    const apps = ['dashboard', 'fan-pwa'];
    for (const copy of all(p, 'COPY')) {
      if (/--from=/.test(text(copy))) continue;
      const words = text(copy)
        .split(/\s+/)
        .filter((w) => !w.startsWith('--'));
      for (const source of words.slice(0, -1)) {
        if (source === '.') continue;
        const expanded = source.includes(APP_ARG) ? apps.map((a) => source.replace(APP_ARG, a)) : [source];
        for (const s of expanded) expect(existsSync(repoPath(s)), `COPY ${s}`).toBe(true);
      }
    }
  });

  it('installs pnpm with corepack, at the version of package.json', () => {
    expect(runs(p)).toMatch(/corepack enable/);
    const version = /ARG PNPM_VERSION=(\S+)/.exec(p.text)?.[1];
    expect(`pnpm@${version}`).toBe(packageManager);
  });

  it('installs from the lockfile and builds with turbo', () => {
    expect(runs(p)).toMatch(/pnpm install [^\n]*--frozen-lockfile/);
    const filter = /pnpm turbo run build --filter=(\S+?)(\.\.\.)?(\s|$)/.exec(runs(p))?.[1];
    expect(filter).toBe(pkg);
    if (!pkg.includes('$')) expect(workspacePackages.has(pkg), `${pkg} is a workspace package`).toBe(true);
  });

  it('runs as a non-root user in the final stage', () => {
    const users = final.instructions.filter((i) => i.getKeyword() === 'USER').map(args);
    expect(users.length, 'USER in the final stage').toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
  });

  it('has a HEALTHCHECK and exposes its port in the final stage', () => {
    const checks = final.instructions.filter((i) => i.getKeyword() === 'HEALTHCHECK').map(args);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatch(/CMD/);
    expect(checks[0]).not.toMatch(/^NONE/);
    expect(checks[0]).toContain('/healthz');
    const exposed = final.instructions.filter((i) => i.getKeyword() === 'EXPOSE').map(args);
    expect(exposed).toContain(port);
  });

  if (entry) {
    it('deploys production dependencies only and starts the bundle', () => {
      expect(runs(p)).toMatch(
        new RegExp(
          `pnpm --filter ${pkg} deploy --prod (--legacy|--config\\.inject-workspace-packages=true) /out`,
        ),
      );
      const cmd = final.instructions.filter((i) => i.getKeyword() === 'CMD').map(args);
      expect(cmd.at(-1)).toContain(entry);
      // The runtime stage holds no sources and no dev tooling: only what the build stage deployed.
      for (const copy of final.instructions.filter((i) => i.getKeyword() === 'COPY')) {
        expect(text(copy)).toMatch(/^--from=build \/out\//);
      }
      expect(final.image).toMatch(/^node:24/);
    });
  }
});

describe('infra/docker/api.Dockerfile', () => {
  it('builds the migration runner beside the server, from packages/db', () => {
    expect(readRepoFile('apps/api/tsup.config.ts')).toMatch(/'migrate-cli': 'src\/migrate-cli\.ts'/);
    expect(readRepoFile('apps/api/src/migrate-cli.ts')).toContain("import '@fanpilot/db/migrate-cli';");
    const db = JSON.parse(readRepoFile('packages/db/package.json')) as {
      exports: Record<string, { default: string }>;
      files: string[];
    };
    expect(db.exports['./migrate-cli']?.default).toBe('./dist/migrate-cli.js');
    expect(db.files).toContain('dist');
  });

  it('starts the api with the small heap its memory figures were measured with', () => {
    // docs/performance.md#idle-event-streams: ~75 MB less at rest; the manifests' stream count
    // (infra/k8s/api.yaml) counts on it, and `pnpm start` and the benches start the api the same way.
    const cmd = load('infra/docker/api.Dockerfile')
      .stages.at(-1)!
      .instructions.filter((i) => i.getKeyword() === 'CMD')
      .map(args);
    for (const flag of ['--max-semi-space-size=8', '--heap-growing-percent=20']) {
      expect(cmd.at(-1)).toContain(flag);
      expect(readRepoFile('scripts/start.mjs')).toContain(`'${flag}'`);
      expect(readRepoFile('scripts/bench/lib.mjs')).toContain(flag);
      expect(readRepoFile('apps/api/package.json')).toContain(flag);
    }
  });
});

describe('infra/docker/web.Dockerfile', () => {
  const p = load('infra/docker/web.Dockerfile');
  it('builds either static app, chosen by the APP build argument', () => {
    expect(p.text).toMatch(/ARG APP=dashboard/);
    expect(runs(p)).toMatch(/dashboard\|fan-pwa/);
    for (const app of ['dashboard', 'fan-pwa']) {
      expect(existsSync(repoPath('infra/docker/web', `${app}.conf`))).toBe(true);
      expect(existsSync(repoPath('apps', app, 'package.json'))).toBe(true);
    }
  });

  it('serves with an unprivileged nginx', () => {
    expect(p.stages.at(-1)!.image).toMatch(/nginx-unprivileged/);
  });
});

describe('.dockerignore', () => {
  const patterns = readRepoFile('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it('keeps installed modules, build output, git and secrets out of the context', () => {
    for (const required of ['**/node_modules', '**/dist', '.git', '.env']) {
      expect(patterns).toContain(required);
    }
  });

  it('keeps what the builds need', () => {
    const needed = [
      'package.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      'turbo.json',
      'tsconfig.base.json',
      'apps',
      'packages',
      'infra',
    ];
    for (const path of needed) {
      expect(patterns, `${path} must not be ignored`).not.toContain(path);
      expect(patterns).not.toContain(`/${path}`);
    }
    expect(patterns).not.toContain('*');
    expect(patterns).not.toContain('**');
  });
});
