import { noteWaitingQuestions, sendDueAlerts, sendDueDigests } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { runEvery } from '@fanpilot/jobs';
import type { Kysely } from 'kysely';
import type { BackgroundLog } from './index.ts';

/** A creator's first alert waits this long for others to join it: one email for a burst (record 0061). */
export const ALERT_GROUP_WINDOW_MS = 120_000;
/** How often questions are checked against the creators' waiting time, and digests fall due. */
const ALERT_SWEEP_MS = 60_000;

export interface AlertsRoleOptions {
  /** The public origin the emails' links point to. */
  origin: string;
  /** The secret the unsubscribe links are signed with (the session secret). */
  secret: string;
  /** The collecting window (ALERT_GROUP_WINDOW_MS; tests: shorter). */
  windowMs?: number;
  /** How often the waiting-time check and the digest run (a minute; tests: shorter). */
  sweepMs?: number;
  /** The clock (tests: a seeded morning). */
  clock?: () => Date;
}

/**
 * The alerts role: groups committed alerts into emails and pushes as their window closes, notes
 * questions waiting too long, sends the digests due. Every step locks what it sends with SKIP
 * LOCKED, so each api process may run it. Returns the timers' stops.
 */
export function startAlerts(db: Kysely<Database>, options: AlertsRoleOptions, log: BackgroundLog) {
  const windowMs = options.windowMs ?? ALERT_GROUP_WINDOW_MS;
  const sweepMs = options.sweepMs ?? ALERT_SWEEP_MS;
  const now = options.clock ?? (() => new Date());
  const mail = { origin: options.origin, secret: options.secret };
  return [
    runEvery(
      Math.max(100, Math.min(5_000, Math.floor(windowMs / 4))),
      async () => {
        const sent = await sendDueAlerts(db, { ...mail, windowMs, now: now() });
        if (sent > 0) log.info({ groups: sent }, 'creator alerts sent');
      },
      { now: true, onError: (err) => log.warn({ err }, 'creator alerts not sent; tried again shortly') },
    ),
    runEvery(
      sweepMs,
      async () => {
        const waiting = await noteWaitingQuestions(db, now());
        if (waiting > 0) log.info({ waiting }, 'questions waiting past the creators’ waiting time');
        const digests = await sendDueDigests(db, { ...mail, now: now() });
        if (digests > 0) log.info({ digests }, 'digests sent');
      },
      { now: true, onError: (err) => log.warn({ err }, 'alert sweep failed') },
    ),
  ];
}
