import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The web apps name calls (packages/contracts routes/calls and the client); they never spell an api
// address: a path written in an app is a path that can drift from the server's.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const APPS = ['apps/dashboard/src', 'apps/fan-pwa/src', 'apps/extension/src'];

/** Lines of `text` that spell an api address ("/api/…" in code, a string or a comment). */
export function apiPathsIn(text: string): number[] {
  return text.split('\n').flatMap((line, i) => (/\/api\//.test(line) ? [i + 1] : []));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('api addresses in the web apps', () => {
  it('are found wherever they are spelled', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal in the scanned source
    expect(apiPathsIn("fetch('/api/ask')\nconst a = 1;\nconst u = `/api/x/${id}`;")).toEqual([1, 3]);
    expect(apiPathsIn("api.call('ask', { body })")).toEqual([]);
  });

  it.each(APPS)('are never spelled in %s (calls are named through @fanpilot/contracts)', (dir) => {
    const found = sources(path.join(root, dir)).flatMap((file) =>
      apiPathsIn(readFileSync(file, 'utf8')).map((line) => `${path.relative(root, file)}:${line}`),
    );
    expect(found).toEqual([]);
  });
});
