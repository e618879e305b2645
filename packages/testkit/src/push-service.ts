import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One push the service accepted: decrypted, with its VAPID claims checked. */
export interface ReceivedPush {
  device: string;
  payload: unknown;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
}

export interface Device {
  id: string;
  /** What the browser's PushSubscription.toJSON() gives. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
}

const b64 = (buf: Buffer) => buf.toString('base64url');

/**
 * A loopback push service (RFC 8030) that plays the browsers too: `device()` makes a subscription
 * with its own P-256 key pair and auth secret; each push is checked like a real service checks it
 * (VAPID, RFC 8292: an ES256 JWT for this origin, not expired, signed by the key it names) and
 * decrypted like a browser decrypts it (aes128gcm, RFC 8188/8291). Pushes that fail a check are
 * answered 400/401/403 and not recorded.
 */
export async function startPushService() {
  const devices = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer; gone: boolean }>();
  const received: ReceivedPush[] = [];
  const refused: { device: string; status: number; reason: string }[] = [];
  let failNext = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const deny = (status: number, reason: string, device = '') => {
        refused.push({ device, status, reason });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
      };
      const match = /^\/push\/([0-9a-f-]{36})$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) return deny(404, 'no such endpoint');
      const id = match[1]!;
      const device = devices.get(id);
      if (!device) return deny(404, 'no such subscription', id);
      if (device.gone) return deny(410, 'subscription expired', id);
      if (failNext > 0) {
        failNext--;
        return deny(503, 'service unavailable', id);
      }
      let vapid: ReceivedPush['vapid'];
      try {
        vapid = checkVapid(req, `http://${req.headers.host}`);
      } catch (err) {
        return deny(403, (err as Error).message, id);
      }
      if (req.headers['content-encoding'] !== 'aes128gcm')
        return deny(400, 'content-encoding must be aes128gcm', id);
      const ttl = Number(req.headers.ttl);
      if (!Number.isInteger(ttl) || ttl < 0) return deny(400, 'TTL header required', id);
      let payload: unknown;
      try {
        payload = JSON.parse(decrypt(Buffer.concat(chunks), device.ecdh, device.auth).toString('utf8'));
      } catch (err) {
        return deny(400, `cannot decrypt: ${(err as Error).message}`, id);
      }
      received.push({
        device: id,
        payload,
        ttl,
        urgency: req.headers.urgency as string | undefined,
        topic: req.headers.topic as string | undefined,
        vapid,
      });
      res.writeHead(201, { location: `/message/${randomUUID()}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    received,
    refused,
    /** A browser's new subscription on this service. */
    device(): Device {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      devices.set(id, { ecdh, auth, gone: false });
      return {
        id,
        subscription: {
          endpoint: `${origin}/push/${id}`,
          keys: { p256dh: b64(ecdh.getPublicKey()), auth: b64(auth) },
        },
      };
    },
    /** The browser dropped this subscription: the service answers 410 Gone from now on. */
    expire(id: string) {
      const d = devices.get(id);
      if (d) d.gone = true;
    },
    /** The next `n` pushes are answered 503 (the service is down). */
    failNext(n: number) {
      failNext = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`; returns the checked claims. */
function checkVapid(req: IncomingMessage, audience: string): ReceivedPush['vapid'] {
  const header = req.headers.authorization ?? '';
  const t = /(?:^|[\s,])t=([^,\s]+)/.exec(header)?.[1];
  const k = /(?:^|[\s,])k=([^,\s]+)/.exec(header)?.[1];
  if (!header.startsWith('vapid ') || !t || !k) throw new Error('missing vapid authorization');
  const [h, p, s] = t.split('.');
  if (!h || !p || !s) throw new Error('malformed JWT');
  const jwtHeader = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: string };
  if (jwtHeader.alg !== 'ES256') throw new Error('JWT must be ES256');
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 key');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33)) },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  if (!ok) throw new Error('bad JWT signature');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as {
    aud: string;
    sub: string;
    exp: number;
  };
  const now = Math.floor(Date.now() / 1000);
  if (claims.aud !== audience) throw new Error(`aud ${claims.aud} is not ${audience}`);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error('exp out of range');
  if (!/^(mailto:|https:\/\/)/.test(claims.sub)) throw new Error('sub must be mailto: or https:');
  return { ...claims, publicKey: k };
}

/** RFC 8291 + RFC 8188 (aes128gcm, one record) as the browser does it. */
function decrypt(body: Buffer, ua: ReturnType<typeof createECDH>, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (idlen !== 65) throw new Error('keyid is not the sender public key');
  if (record.length > rs) throw new Error('more than one record');
  const secret = ua.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}
