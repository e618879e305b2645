import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import path from 'node:path';
import {
  PUSH_PAYLOAD_MAX_BYTES,
  PUSH_PREVIEW_CHARS,
  PUSH_QUEUE,
  type PushJob,
  type PushPayload,
  pushDeliveryJobId,
  pushJobSchema,
} from '@fanpilot/contracts';
import {
  alertBatch,
  checkPushServiceHost,
  creatorPushSubscriptions,
  findPushSubscription,
  noticesRepository,
  pushRecipients,
  pushSubject,
  pushSubscriptions,
} from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import type { JobRunner } from '@fanpilot/jobs';
import { resolveAllowedAddress } from '@fanpilot/knowledge';
import type { Kysely } from 'kysely';
import webpush from 'web-push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const VAPID_FILE = 'vapid.json';

/**
 * The VAPID key pair: from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, else the pair kept under DATA_DIR
 * (made on first start, readable by this user only). The subject is VAPID_SUBJECT, else a mailto:
 * at the public origin's host.
 */
export function loadVapidKeys(
  env: {
    VAPID_PUBLIC_KEY?: string | undefined;
    VAPID_PRIVATE_KEY?: string | undefined;
    VAPID_SUBJECT?: string | undefined;
    DATA_DIR: string;
  },
  publicOrigin: string,
): VapidKeys {
  const subject = env.VAPID_SUBJECT ?? `mailto:push@${new URL(publicOrigin).hostname}`;
  if (env.VAPID_PUBLIC_KEY || env.VAPID_PRIVATE_KEY) {
    if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY) {
      throw new Error('Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither.');
    }
    // Throws with a clear message when a key is malformed.
    webpush.setVapidDetails(subject, env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY);
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  }
  const file = path.resolve(env.DATA_DIR, VAPID_FILE);
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    return { ...kept, subject };
  }
  const keys = webpush.generateVAPIDKeys();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { ...keys, subject };
}

/** A push endpoint whose host resolves to an address we never send to (private, unresolvable). */
export class PushEndpointRefused extends Error {
  constructor() {
    super('The push subscription endpoint is not a public push service address.');
  }
}

/**
 * A push endpoint the api may send to (checked when a browser subscribes and again before every
 * push): https on a known browser push service, or a host PUSH_ALLOWED_HOSTS lists (packages/core
 * checkPushServiceHost); and, by the SSRF rules of knowledge fetching, every address the host
 * resolves to is public (listed hosts excepted). Returns the address to connect to, so the check
 * and the connection use the same answer.
 */
export async function checkPushEndpoint(
  endpoint: string,
  allowedHosts: string[],
): Promise<{ url: URL; address: string; family: number }> {
  const { listed } = checkPushServiceHost(endpoint, allowedHosts);
  const url = new URL(endpoint);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  try {
    const resolved = await resolveAllowedAddress(url, { allowedPrivateHosts: listed ? [host] : [] });
    return { url, address: resolved.address, family: resolved.family };
  } catch {
    throw new PushEndpointRefused();
  }
}

const cut = (text: string, max: number) => {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

/** What a process needs to deliver Web Push (any process: the api or a worker with the keys). */
export interface PushSettings {
  vapid: VapidKeys;
  /** PUSH_ALLOWED_HOSTS: push services allowed beside the known ones (tests: the loopback one). */
  allowedHosts: string[];
  /** How long one delivery may take (10 s). */
  timeoutMs?: number;
}

export interface PushDeps extends PushSettings {
  db: Kysely<Database>;
  jobs: Pick<JobRunner, 'enqueue'>;
  logger?: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}

/** What a notification about this message or announcement says, and where a tap goes. */
async function payloadFor(db: Kysely<Database>, job: PushJob, preview: boolean): Promise<PushPayload | null> {
  const subject = await pushSubject(db, job);
  if (!subject) return null;
  if (subject.kind === 'message') {
    const who = subject.sender === 'creator' ? subject.name : `${subject.name}'s AI assistant`;
    return {
      title: `${who} replied`,
      // An AI answer's [n] citation markers are links in the chat; a notification drops them.
      body: preview
        ? cut(
            subject.sender === 'creator' ? subject.body : subject.body.replace(/[ \t]?\[\d{1,3}\]/g, ''),
            PUSH_PREVIEW_CHARS,
          )
        : 'You have a new message. Tap to read it.',
      url: `/pwa/${encodeURIComponent(subject.username)}?message=${subject.id}`,
      tag: `chat-${subject.username}`,
    };
  }
  return {
    title: `${subject.name}: announcement`,
    body: preview ? cut(subject.message, PUSH_PREVIEW_CHARS) : 'A new announcement. Tap to read it.',
    url: `/pwa/${encodeURIComponent(subject.username)}`,
    tag: `notice-${subject.username}`,
  };
}

/** Thrown for a delivery worth trying again (the push service is down or busy). */
class PushRetry extends Error {}

/** POSTs web-push's request to the endpoint's checked address; returns the status. */
function send(
  details: {
    method: string;
    headers: Record<string, string | number>;
    body: Buffer | null;
    endpoint: string;
  },
  target: { url: URL; address: string; family: number },
  timeoutMs: number,
): Promise<number> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'http:' ? http : https;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target.url,
      { method: details.method, headers: details.headers, lookup, timeout: timeoutMs },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('push service timed out')));
    req.on('error', reject);
    req.end(details.body ?? undefined);
  });
}

/** Fans a message or announcement out to delivery jobs, one per device. */
async function fanOut(deps: PushDeps, job: PushJob): Promise<number> {
  const subscriptions =
    job.kind === 'alert'
      ? await creatorPushSubscriptions(deps.db).recipients(job.id)
      : await pushRecipients(deps.db, job);
  for (const id of subscriptions) {
    const delivery = { ...job, subscriptionId: id };
    await deps.jobs.enqueue(PUSH_QUEUE, delivery, { jobId: pushDeliveryJobId(delivery) });
  }
  return subscriptions.length;
}

/**
 * Delivers a creator's alert group to one of their browsers (record 0061): claimed once per
 * browser and group, so a repeated fan-out or a second process never notifies twice.
 */
async function deliverAlert(deps: PushDeps, job: PushJob & { subscriptionId: string }) {
  const devices = creatorPushSubscriptions(deps.db);
  const sub = await devices.find(job.subscriptionId);
  if (!sub) return 'gone';
  const batch = await alertBatch(deps.db, job.id);
  if (!batch) return 'nothing';
  const payload: PushPayload = {
    title: batch.title,
    body: cut(batch.body, PUSH_PREVIEW_CHARS),
    url: batch.url,
    tag: `alerts-${batch.username}`,
  };
  let target: Awaited<ReturnType<typeof checkPushEndpoint>>;
  try {
    target = await checkPushEndpoint(sub.endpoint, deps.allowedHosts);
  } catch {
    await devices.remove(sub.id);
    return 'refused';
  }
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: deps.vapid,
      TTL: 24 * 60 * 60,
      urgency: 'high',
      topic: payload.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
      contentEncoding: webpush.supportedContentEncodings.AES_128_GCM,
    },
  );
  if (!(await devices.claim(sub.id, batch.id))) return 'already pushed';
  let status: number;
  try {
    status = await send(details as never, target, deps.timeoutMs ?? 10_000);
  } catch (err) {
    await devices.release(sub.id, batch.id);
    throw new PushRetry(`push service unreachable: ${(err as Error).message}`);
  }
  if (status >= 200 && status < 300) {
    await devices.delivered(sub.id);
    return 'delivered';
  }
  if (status === 404 || status === 410) {
    await devices.remove(sub.id);
    return 'gone';
  }
  if (status === 429 || status >= 500) {
    await devices.release(sub.id, batch.id);
    throw new PushRetry(`push service answered ${status}`);
  }
  deps.logger?.warn({ status, subscriptionId: sub.id }, 'alert push refused by the push service');
  return 'refused';
}

/** Delivers one push to one device: gone subscriptions are deleted, busy services retried. */
async function deliver(deps: PushDeps, job: PushJob & { subscriptionId: string }) {
  if (job.kind === 'alert') return deliverAlert(deps, job);
  const sub = await findPushSubscription(deps.db, job.subscriptionId);
  if (!sub) return 'gone';
  const payload = await payloadFor(deps.db, job, sub.preview);
  if (!payload) return 'nothing';
  let body = JSON.stringify(payload);
  if (Buffer.byteLength(body) > PUSH_PAYLOAD_MAX_BYTES) body = JSON.stringify({ ...payload, body: '' });
  let target: Awaited<ReturnType<typeof checkPushEndpoint>>;
  try {
    target = await checkPushEndpoint(sub.endpoint, deps.allowedHosts);
  } catch {
    // Not a push service we send to (any more), or its host now points somewhere private: never
    // sent to again.
    await pushSubscriptions(deps.db).remove(sub.id);
    return 'refused';
  }
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    body,
    {
      vapidDetails: deps.vapid,
      TTL: 24 * 60 * 60,
      urgency: 'normal',
      topic: payload.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
      contentEncoding: webpush.supportedContentEncodings.AES_128_GCM,
    },
  );
  // One push per message and device, however often the trigger fires or from which process: the
  // claim is taken before the push service is called and given back only for a retry.
  const subscriptions = pushSubscriptions(deps.db);
  if (!(await subscriptions.claimDelivery(sub.id, job.kind, job.id))) return 'already pushed';
  let status: number;
  try {
    status = await send(details as never, target, deps.timeoutMs ?? 10_000);
  } catch (err) {
    await subscriptions.releaseDelivery(sub.id, job.kind, job.id);
    throw new PushRetry(`push service unreachable: ${(err as Error).message}`);
  }
  if (status >= 200 && status < 300) {
    await subscriptions.delivered(sub.id);
    if (job.kind === 'notice') await noticesRepository(deps.db).countDelivery(job.id);
    return 'delivered';
  }
  if (status === 404 || status === 410) {
    await pushSubscriptions(deps.db).remove(sub.id);
    return 'gone';
  }
  if (status === 429 || status >= 500) {
    await subscriptions.releaseDelivery(sub.id, job.kind, job.id);
    throw new PushRetry(`push service answered ${status}`);
  }
  deps.logger?.warn({ status, subscriptionId: sub.id }, 'push refused by the push service');
  return 'refused';
}

/** The PUSH_QUEUE job handler: fan-out jobs and delivery jobs. */
export function createPushHandler(deps: PushDeps) {
  return async (data: unknown): Promise<void> => {
    const parsed = pushJobSchema.safeParse(data);
    if (!parsed.success) {
      deps.logger?.warn({ data }, 'push job: malformed payload dropped');
      return;
    }
    const job = parsed.data;
    if (!job.subscriptionId) {
      const devices = await fanOut(deps, job);
      deps.logger?.info({ kind: job.kind, id: job.id, devices }, 'push fanned out');
      return;
    }
    const outcome = await deliver(deps, { ...job, subscriptionId: job.subscriptionId });
    deps.logger?.info({ kind: job.kind, id: job.id, subscriptionId: job.subscriptionId, outcome }, 'push');
  };
}
