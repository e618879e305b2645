// A creator's clock: quiet hours and the digest's morning are in their time zone (IANA name).

// Formats by zone: making an Intl.DateTimeFormat costs far more than using one, and the sweeps ask
// for every creator's clock each round (profiled: docs/performance.md). Bounded: names are input.
const MAX_ZONES = 1000;
const formats = new Map<string, Intl.DateTimeFormat | null>();

function formatOf(zone: string): Intl.DateTimeFormat | null {
  let format = formats.get(zone);
  if (format !== undefined) return format;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    });
  } catch {
    format = null;
  }
  if (formats.size < MAX_ZONES) formats.set(zone, format);
  return format;
}

/** Whether `zone` is a time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  return formatOf(zone) !== null;
}

export interface LocalTime {
  /** YYYY-MM-DD in the zone. */
  date: string;
  /** Minutes after local midnight. */
  minutes: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** `at` on the wall clock of `zone` (UTC when the zone is unknown). */
export function localTime(at: Date, zone: string): LocalTime {
  const format = formatOf(zone) ?? (formatOf('UTC') as Intl.DateTimeFormat);
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
    weekday: WEEKDAYS.indexOf(String(parts.weekday)),
  };
}

/** Whether local minute `minutes` falls in quiet hours from `start` to `end` (which may span midnight). */
export function inQuietHours(minutes: number, start: number | null, end: number | null): boolean {
  if (start === null || end === null || start === end) return false;
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

/** "HH:MM" from minutes after midnight. */
export const clockOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Minutes after midnight from "HH:MM". */
export const minutesOf = (clock: string) => {
  const [h, m] = clock.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};
