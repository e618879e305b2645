import { type CallDefinition, calls } from '@fanpilot/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers.ts';

/** Every /api route is registered from its contract, and the generated OpenAPI document is valid. */
describe('the api contract', () => {
  let t: TestApp;
  const registered: RouteOptions[] = [];

  beforeAll(async () => {
    t = await startTestApp({ onRoute: (route) => registered.push(route) });
  });
  afterAll(async () => {
    await t?.close();
  });

  const apiRoutes = () =>
    registered
      .flatMap((route) => [route.method].flat().map((method) => ({ method, url: route.url, route })))
      .filter(
        ({ method, url }) => url.startsWith('/api/') && !url.startsWith('/api/docs') && method !== 'HEAD',
      );

  it('has a contract for every /api route, with the same method, path and schema, and a route for every contract', () => {
    const contracts = new Map<string, CallDefinition>(
      Object.values(calls).map((call) => [`${call.method} ${call.path}`, call as CallDefinition]),
    );
    const routes = apiRoutes();
    const missing = routes.filter(({ method, url }) => !contracts.has(`${method} ${url}`));
    expect(missing.map(({ method, url }) => `${method} ${url}`)).toEqual([]);
    for (const { method, url, route } of routes) {
      const call = contracts.get(`${method} ${url}`)!;
      // The very schema objects of the contract: nothing is re-declared beside it.
      for (const part of ['params', 'querystring', 'body', 'headers', 'response'] as const) {
        expect(route.schema?.[part], `${method} ${url} ${part}`).toBe(call.schema[part]);
      }
    }
    const served = new Set(routes.map(({ method, url }) => `${method} ${url}`));
    expect([...contracts.keys()].filter((key) => !served.has(key))).toEqual([]);
  });

  it('serves a valid OpenAPI 3.1 document of every call at /api/docs/openapi.json, and the reference at /api/docs', async () => {
    const res = await fetch(`${t.url}/api/docs/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    // Fastify's :param becomes OpenAPI's {param}; every call is in it, nothing else.
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = Object.values(calls).map(
      (call) => `${call.method} ${call.path.replace(/:([A-Za-z]+)/g, '{$1}')}`,
    );
    expect(documented.sort()).toEqual(expected.sort());
    const ask = document.paths['/api/ask']?.post as { summary?: string; requestBody?: unknown };
    expect(ask.summary).toBe(calls.ask.summary);
    expect(ask.requestBody).toBeDefined();

    const page = await fetch(`${t.url}/api/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });
});
