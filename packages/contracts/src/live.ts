import type { z } from 'zod';
import type { liveChangeSchema, liveDraftSchema } from './live-schemas.ts';

/**
 * The live protocol, as the browsers see it: what an event stream (Server-Sent Events: the
 * dashboardEvents and fanEvents calls) sends, one module for both ends. The api writes each frame
 * with `encodeLiveEvent`; the dashboard and the fan app read each with `decodeLiveEvent`, which
 * returns null for anything it cannot read (the caller ignores it; the polls go on).
 *
 * This module loads no zod: the fan app's first screen imports it. The schemas in
 * `live-schemas.ts` are the definition (the types below are theirs) and what the server checks
 * with; the guards here are written by hand and a test (live.test.ts) holds them to the schemas.
 */

/** The kinds of change a stream names, as a client groups its queries. A closed list. */
export const LIVE_CHANGE_KINDS = [
  'messages',
  'status',
  'notice',
  'knowledge',
  'credits',
  'templates',
  'settings',
] as const;
export type LiveChangeKind = (typeof LIVE_CHANGE_KINDS)[number];

/** 'change': something of this kind changed; re-read it. */
export type LiveChange = z.infer<typeof liveChangeSchema>;
/** 'draft': the AI's answer to `replyTo` as it is being written; `done` with no text drops it. */
export type LiveDraft = z.infer<typeof liveDraftSchema>;

/** Every event a stream sends ('sync': events may have been missed; re-read everything). */
export type LiveEvent =
  | { event: 'change'; data: LiveChange }
  | { event: 'sync'; data: Record<string, never> }
  | { event: 'draft'; data: LiveDraft };
export type LiveEventName = LiveEvent['event'];

/** The event names, for `EventSource.addEventListener`. */
export const LIVE_EVENT_NAMES: readonly LiveEventName[] = ['change', 'sync', 'draft'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `value` is a kind of change this protocol names. */
export function isLiveChangeKind(value: unknown): value is LiveChangeKind {
  return typeof value === 'string' && (LIVE_CHANGE_KINDS as readonly string[]).includes(value);
}

/** A 'change' event's data (extra fields are allowed and dropped, as the schema does). */
export function isLiveChange(value: unknown): value is LiveChange {
  return isRecord(value) && isLiveChangeKind(value.kind);
}

/** A 'draft' event's data. */
export function isLiveDraft(value: unknown): value is LiveDraft {
  return (
    isRecord(value) &&
    typeof value.replyTo === 'string' &&
    typeof value.text === 'string' &&
    typeof value.done === 'boolean'
  );
}

/** A 'sync' event's data: an object (whatever it holds is not read). */
export function isLiveSync(value: unknown): value is Record<string, never> {
  return isRecord(value);
}

/**
 * One Server-Sent Events frame: `id` (the scope versions the stream follows), the event's name,
 * its data as one line of JSON (JSON escapes line breaks, so the frame cannot be split).
 */
export function encodeLiveEvent(event: LiveEvent, id: string): string {
  return `id: ${id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** How long a browser waits before it reconnects a dropped stream. */
export const LIVE_RETRY_MS = 3_000;

/**
 * A stream's first frame: no event, only the reconnect delay and the versions it starts from (what
 * the browser sends back as Last-Event-ID when it reconnects).
 */
export function encodeLiveStart(id: string, retryMs: number = LIVE_RETRY_MS): string {
  return `retry: ${retryMs}\nid: ${id}\n\n`;
}

/**
 * An event as a browser's EventSource hands it over (its name, its data), or null when it is not
 * one this protocol sends: an unknown name, data that is not JSON or not of the event's shape.
 * Only the fields the protocol names are kept.
 */
export function decodeLiveEvent(name: string, data: string): LiveEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (name === 'change' && isLiveChange(value)) return { event: name, data: { kind: value.kind } };
  if (name === 'sync' && isLiveSync(value)) return { event: name, data: {} };
  if (name === 'draft' && isLiveDraft(value)) {
    return { event: name, data: { replyTo: value.replyTo, text: value.text, done: value.done } };
  }
  return null;
}
