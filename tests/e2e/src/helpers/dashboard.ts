import { randomBytes } from 'node:crypto';
import { createDb, type DbHandle } from '@fanpilot/db';
import { createTestDatabase } from '@fanpilot/testkit';
import type { BrowserContext, Page } from 'playwright-core';
import { type DesktopSession, openDesktop } from './browser.ts';
import { type RunningApi, startApi } from './server.ts';

/** The built api and a desktop browser on it; `db` is set when the api runs on a PostgreSQL database of the test's own. */
export interface DashboardRig {
  api: RunningApi;
  context: BrowserContext;
  page: Page;
  db: DbHandle | undefined;
  stop: () => Promise<void>;
}

/**
 * The built api with jobs in-process and no model or Stripe keys, on embedded PGlite or, given
 * `baseDatabaseUrl`, on a fresh PostgreSQL database beside it that the test may also read and
 * write; then Chromium on a 1440×900 page of its origin. stop() undoes all of it.
 */
export async function startDashboardRig(baseDatabaseUrl?: string): Promise<DashboardRig> {
  const database = baseDatabaseUrl ? await createTestDatabase(baseDatabaseUrl) : undefined;
  const db = database ? createDb({ databaseUrl: database.url, poolSize: 2 }) : undefined;
  let api: RunningApi | undefined;
  let desktop: DesktopSession | undefined;
  const stop = async () => {
    await desktop?.close();
    await api?.stop();
    await db?.close();
    await database?.drop();
  };
  try {
    api = await startApi({
      env: {
        REDIS_URL: undefined,
        DATABASE_URL: database?.url,
        OPENAI_API_KEY: undefined,
        STRIPE_SECRET_KEY: undefined,
      },
    });
    desktop = await openDesktop(api.origin);
  } catch (error) {
    await stop();
    throw error;
  }
  return { api, context: desktop.context, page: desktop.page, db, stop };
}

/** A new anonymous fan's id, shaped as the fan app makes them. */
export const newFanId = (): string => `mobile_fan_${randomBytes(16).toString('hex')}`;

/**
 * A fan's question to `creator`, sent as the fan app sends it (POST /api/ask); fails unless the api
 * answers 200. Returns the answer's body and the fan cookie (reading the chat later needs it).
 */
export async function askAsFan(origin: string, creator: string, message: string, fanId = newFanId()) {
  const response = await fetch(`${origin}/api/ask`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ creator, message, fanId }),
  });
  if (response.status !== 200) throw new Error(`POST /api/ask: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const body = (await response.json()) as { aiWillAnswer: boolean };
  return { fanId, cookie, aiWillAnswer: body.aiWillAnswer };
}
