import type { AlertKind } from '@fanpilot/contracts';
import { sql } from 'kysely';
import type { AnswerRefusal } from '../answer-policy.ts';
import type { Db } from '../db.ts';

/**
 * Why a question waits for the creator, when the AI did not hand it over: the answer policy's
 * refusal at the ask (the paywall is never an alert: that fan is asked to subscribe).
 */
export type QuestionWaitReason = Exclude<AnswerRefusal, 'paywall'>;

/** The NOTIFY channel a new alert wakes the alerts role on (delivered when the transaction commits). */
export const ALERT_CHANNEL = 'fp_alert';

/**
 * Notes a fact the creator should hear of, in the caller's transaction: once per (kind, ref) however
 * often it is noted. The triggers of migration 2026-11-27T10-00 note the facts the database sees
 * (a hand-over, a failed source, credits falling); use cases note the rest here.
 */
export async function noteAlert(
  db: Db,
  alert: {
    creatorId: string;
    kind: AlertKind;
    ref: string;
    fanId?: string | null;
    detail?: string;
    /** Why a question waits for the creator (the answer policy's refusal); none: the AI handed it over. */
    reason?: QuestionWaitReason | null;
  },
): Promise<void> {
  await sql`select creator_alert_add(${alert.creatorId}::uuid, ${alert.kind}, ${alert.ref},
    ${alert.fanId ?? null}::uuid, ${(alert.detail ?? '').slice(0, 300)}, ${alert.reason ?? null}::text)`.execute(
    db,
  );
}
