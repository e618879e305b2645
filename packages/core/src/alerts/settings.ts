import {
  ALERT_KINDS,
  type AlertChannel,
  type AlertKind,
  type NotificationSettings,
  type NotificationSettingsResponse,
} from '@fanpilot/contracts';
import type { Db } from '../db.ts';
import { DomainError } from '../errors.ts';
import { clockOf, isTimeZone, minutesOf } from './local-time.ts';

// A creator's notification settings (record 0061). A creator who never saved them has the
// defaults: every kind on by email and push, a question waiting an hour, no quiet hours, UTC, a
// daily digest at 8.

export interface AlertSettings {
  channels: Record<AlertKind, Record<AlertChannel, boolean>>;
  waitMinutes: number;
  quietStart: number | null;
  quietEnd: number | null;
  timeZone: string;
  digest: 'daily' | 'weekly' | 'off';
  digestHour: number;
  lastDigestOn: string | null;
  bouncedAt: Date | null;
  bounceReason: string | null;
}

type StoredChannels = Record<string, { email?: boolean; push?: boolean }>;

/** The settings a stored row (or none) stands for. */
export function settingsOf(
  row:
    | {
        channels: StoredChannels | string;
        wait_minutes: number;
        quiet_start: number | null;
        quiet_end: number | null;
        time_zone: string;
        digest: 'daily' | 'weekly' | 'off';
        digest_hour: number;
        last_digest_on: string | null;
        email_bounced_at: Date | string | null;
        email_bounce_reason: string | null;
      }
    | undefined,
): AlertSettings {
  const stored: StoredChannels =
    typeof row?.channels === 'string' ? JSON.parse(row.channels) : (row?.channels ?? {});
  const channels = Object.fromEntries(
    ALERT_KINDS.map((kind) => [
      kind,
      { email: stored[kind]?.email !== false, push: stored[kind]?.push !== false },
    ]),
  ) as AlertSettings['channels'];
  return {
    channels,
    waitMinutes: row?.wait_minutes ?? 60,
    quietStart: row?.quiet_start ?? null,
    quietEnd: row?.quiet_end ?? null,
    timeZone: row?.time_zone ?? 'UTC',
    digest: row?.digest ?? 'daily',
    digestHour: row?.digest_hour ?? 8,
    lastDigestOn: row?.last_digest_on ?? null,
    bouncedAt: row?.email_bounced_at ? new Date(row.email_bounced_at) : null,
    bounceReason: row?.email_bounce_reason ?? null,
  };
}

/** The creator's settings (the defaults when never saved). */
export async function loadAlertSettings(db: Db, creatorId: string): Promise<AlertSettings> {
  const row = await db
    .selectFrom('creator_alert_settings')
    .selectAll()
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  return settingsOf(row);
}

/**
 * Runs `send` in a transaction holding the creator's settings row (made with the defaults when never
 * saved), with the settings it holds. Another process holding the row is sending this creator's
 * mail: `send` is skipped and false is the answer (alerts and the digest go out once).
 */
export async function withAlertSettingsHeld(
  db: Db,
  creatorId: string,
  send: (trx: Db, settings: AlertSettings) => Promise<boolean>,
): Promise<boolean> {
  await db
    .insertInto('creator_alert_settings')
    .values({ creator_id: creatorId })
    .onConflict((oc) => oc.column('creator_id').doNothing())
    .execute();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('creator_alert_settings')
      .selectAll()
      .where('creator_id', '=', creatorId)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    return row ? send(trx, settingsOf(row)) : false;
  });
}

/** The settings as the settings page reads them. */
export async function notificationSettings(
  db: Db,
  creator: { id: string; email: string },
): Promise<NotificationSettingsResponse> {
  const s = await loadAlertSettings(db, creator.id);
  const devices = await db
    .selectFrom('creator_push_subscriptions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('creator_id', '=', creator.id)
    .executeTakeFirst();
  return {
    kinds: s.channels,
    waitMinutes: s.waitMinutes,
    quietHours:
      s.quietStart !== null && s.quietEnd !== null
        ? { start: clockOf(s.quietStart), end: clockOf(s.quietEnd) }
        : null,
    timeZone: s.timeZone,
    digest: s.digest,
    digestHour: s.digestHour,
    email: creator.email,
    bounce: s.bouncedAt ? { at: s.bouncedAt.toISOString(), reason: s.bounceReason ?? '' } : null,
    pushDevices: Number(devices?.n ?? 0),
  };
}

/**
 * Saves the settings. An unknown time zone is refused; quiet hours that start and end at the same
 * minute are none. Saving clears a noted bounce: email is tried again (the creator fixed it).
 */
export async function updateNotificationSettings(
  db: Db,
  creator: { id: string; email: string },
  input: NotificationSettings,
): Promise<NotificationSettingsResponse> {
  if (!isTimeZone(input.timeZone)) {
    throw new DomainError('invalid', 'invalid_time_zone', `"${input.timeZone}" is not a time zone we know.`);
  }
  const quiet =
    input.quietHours && input.quietHours.start !== input.quietHours.end
      ? { start: minutesOf(input.quietHours.start), end: minutesOf(input.quietHours.end) }
      : null;
  const values = {
    channels: JSON.stringify(input.kinds),
    wait_minutes: input.waitMinutes,
    quiet_start: quiet?.start ?? null,
    quiet_end: quiet?.end ?? null,
    time_zone: input.timeZone,
    digest: input.digest,
    digest_hour: input.digestHour,
    email_bounced_at: null,
    email_bounce_reason: null,
    updated_at: new Date(),
  };
  await db
    .insertInto('creator_alert_settings')
    .values({ creator_id: creator.id, ...values })
    .onConflict((oc) => oc.column('creator_id').doUpdateSet(values))
    .execute();
  return notificationSettings(db, creator);
}

/** Every alert email (or the digest) stops: what a one-click unsubscribe does. */
export async function stopAlertEmails(db: Db, creatorId: string, what: 'alerts' | 'digest'): Promise<void> {
  const current = await loadAlertSettings(db, creatorId);
  const channels =
    what === 'alerts'
      ? Object.fromEntries(ALERT_KINDS.map((k) => [k, { ...current.channels[k], email: false }]))
      : current.channels;
  await db
    .insertInto('creator_alert_settings')
    .values({
      creator_id: creatorId,
      channels: JSON.stringify(channels),
      ...(what === 'digest' ? { digest: 'off' as const } : {}),
    })
    .onConflict((oc) =>
      oc.column('creator_id').doUpdateSet({
        channels: JSON.stringify(channels),
        ...(what === 'digest' ? { digest: 'off' as const } : {}),
        updated_at: new Date(),
      }),
    )
    .execute();
}

/**
 * The mail server refused `address` for good (a 5xx): noted on the settings of the creator it
 * belongs to, shown on their settings page; alert emails wait until they save their settings.
 */
export async function noteMailBounce(db: Db, address: string, reason: string): Promise<void> {
  const creators = await db
    .selectFrom('creators')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', address.toLowerCase()))
    .execute();
  for (const c of creators) {
    await db
      .insertInto('creator_alert_settings')
      .values({ creator_id: c.id, email_bounced_at: new Date(), email_bounce_reason: reason.slice(0, 300) })
      .onConflict((oc) =>
        oc
          .column('creator_id')
          .doUpdateSet({ email_bounced_at: new Date(), email_bounce_reason: reason.slice(0, 300) }),
      )
      .execute();
  }
}
