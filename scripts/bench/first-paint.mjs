#!/usr/bin/env node
// First contentful paint on a slow phone link: the landing page (/) and the fan app (/pwa/{username})
// served by the built api (`pnpm start`'s server), each loaded cold in Chromium over a link
// throttled to 1.6 Mbps down, 750 kbps up and 150 ms latency (Chrome DevTools' "Slow 4G"-like
// profile the issue names). Also the JavaScript each page loads: its size as sent (the api's
// precompressed brotli) and gzipped (level 9), with the targets beside (docs/decisions/0038-…).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { root, signUpCreator, startBenchApi } from './lib.mjs';

const { chromium } = createRequire(path.join(root, 'tests/e2e/package.json'))('playwright-core');
const RUNS = Number(process.env.BENCH_PAINT_RUNS ?? 5);
const LINK = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};
const TARGET_FCP_MS = 1500;
const TARGET_LANDING_JS_GZIP_KB = 100;

const dists = { '/fan/': path.join(root, 'apps/fan-pwa/dist'), '/': path.join(root, 'apps/dashboard/dist') };
/** The built file a same-origin script URL names. */
const fileFor = (pathname) => {
  const prefix = pathname.startsWith('/fan/') ? '/fan/' : '/';
  return path.join(dists[prefix], pathname.slice(prefix.length));
};

async function measure(browser, url) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', LINK);
  const scripts = new Map();
  cdp.on('Network.loadingFinished', (e) => {
    const s = scripts.get(e.requestId);
    if (s) s.sent = e.encodedDataLength;
  });
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.set(e.requestId, { url: e.response.url, sent: 0 });
  });
  await page.goto(url, { waitUntil: 'load' });
  const fcp = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const found = performance.getEntriesByName('first-contentful-paint')[0];
        if (found) return resolve(found.startTime);
        new PerformanceObserver((list) => {
          const entry = list.getEntriesByName('first-contentful-paint')[0];
          if (entry) resolve(entry.startTime);
        }).observe({ type: 'paint', buffered: true });
      }),
  );
  // Whatever the page fetched on its own after load (lazy chunks it needs for the first screen).
  await page.waitForLoadState('networkidle');
  await context.close();
  return { fcp, scripts: [...scripts.values()] };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  for (const dist of Object.values(dists)) {
    if (!existsSync(path.join(dist, 'index.html'))) {
      console.log(`\nfirst paint: ${dist} is not built; skipped`);
      return;
    }
  }
  const api = await startBenchApi('paint');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic'],
  });
  let failed = false;
  try {
    const { cookie } = await signUpCreator(api.base, 'Paint Bot');
    const me = await (await fetch(`${api.base}/api/auth/user`, { headers: { cookie } })).json();
    console.log(
      `\nfirst contentful paint, cold, 390×844, ${((LINK.downloadThroughput * 8) / 1e6).toFixed(1)} Mbps down / ${LINK.latency} ms (median of ${RUNS})`,
    );
    for (const [name, pathname, jsTarget] of [
      ['landing page', '/', TARGET_LANDING_JS_GZIP_KB],
      ['fan app', `/pwa/${me.username}`, undefined],
    ]) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, `${api.base}${pathname}`));
      const fcp = median(runs.map((r) => r.fcp));
      let sent = 0;
      let gz = 0;
      for (const s of runs[0].scripts) {
        sent += s.sent;
        const file = fileFor(new URL(s.url).pathname);
        if (existsSync(file)) gz += gzipSync(readFileSync(file), { level: 9 }).length;
      }
      const fcpOk = fcp < TARGET_FCP_MS;
      const jsOk = jsTarget === undefined || gz / 1024 <= jsTarget;
      failed ||= !fcpOk || !jsOk;
      console.log(
        `  ${name.padEnd(14)} FCP ${Math.round(fcp)} ms (runs ${runs.map((r) => Math.round(r.fcp)).join(', ')}; target < ${TARGET_FCP_MS} ms ${fcpOk ? 'met' : 'MISSED'})`,
      );
      console.log(
        `  ${''.padEnd(14)} JS ${runs[0].scripts.length} files, ${(sent / 1024).toFixed(1)} KB sent (brotli), ${(gz / 1024).toFixed(1)} KB gzipped${jsTarget === undefined ? '' : ` (target ≤ ${jsTarget} KB ${jsOk ? 'met' : 'MISSED'})`}`,
      );
    }
  } finally {
    await browser.close();
    await api.stop();
  }
  if (failed) process.exitCode = 1;
}

await main();
