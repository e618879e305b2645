import { randomBytes } from 'node:crypto';
import type { DbHandle, FanRow } from '@fanpilot/db';
import { openTestDb } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from './errors.ts';
import { fansRepository } from './fans.ts';
import {
  checkPushServiceHost,
  PUSH_SUBSCRIPTIONS_PER_BROWSER,
  pushSubscriptions,
} from './push-subscriptions.ts';

const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
const endpoint = (n: number | string) => `https://fcm.googleapis.com/fcm/send/device-${n}`;

describe('push subscriptions: one row per device, a few per browser', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  let creatorId: string;
  let otherCreatorId: string;

  const newCreator = async (name: string) =>
    (
      await handle.db
        .insertInto('creators')
        .values({
          google_sub: `sub-${name}-${randomBytes(4).toString('hex')}`,
          email: `${name}@example.com`,
          name,
          username: `${name}${randomBytes(3).toString('hex')}`,
          description: '',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const newFan = (creator: string, cookieHash: string): Promise<FanRow> =>
    fansRepository(handle.db).insertOrGet({
      creatorId: creator,
      fanKey: `fan_${randomBytes(6).toString('hex')}`,
      name: null,
      cookieHash,
    });
  const rowsOf = (fanIds: string[]) =>
    handle.db
      .selectFrom('push_subscriptions')
      .select(['endpoint', 'fan_id', 'creator_id', 'preview'])
      .where('fan_id', 'in', fanIds)
      .execute();

  beforeAll(async () => {
    // Real connections when TEST_DATABASE_URL is set: the race below needs them.
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 12));
    creatorId = await newCreator('pia');
    otherCreatorId = await newCreator('olga');
  });
  afterAll(async () => {
    await close?.();
  });

  it(`keeps at most ${PUSH_SUBSCRIPTIONS_PER_BROWSER} per browser, replacing the oldest`, async () => {
    const fan = await newFan(creatorId, `cookie-${randomBytes(4).toString('hex')}`);
    const subs = pushSubscriptions(handle.db);
    const replaced: number[] = [];
    for (let i = 0; i < 6; i++)
      replaced.push((await subs.save(fan, { endpoint: endpoint(`seq-${i}`), keys }, true)).replaced);
    expect(replaced).toEqual([0, 0, 0, 1, 1, 1]);
    const kept = (await rowsOf([fan.id])).map((r) => r.endpoint).sort();
    expect(kept).toEqual([endpoint('seq-3'), endpoint('seq-4'), endpoint('seq-5')]);
  });

  it('holds the cap when 200 subscribes of one browser race, across its fans of one creator', async () => {
    const cookie = `cookie-${randomBytes(4).toString('hex')}`;
    // One browser that started three chats with the same creator: the cap is the browser's.
    const fans = [
      await newFan(creatorId, cookie),
      await newFan(creatorId, cookie),
      await newFan(creatorId, cookie),
    ];
    const subs = pushSubscriptions(handle.db);
    // Rounds of as many subscribes as there are connections, all at once; counted after each.
    const counts: number[] = [];
    for (let round = 0; round < 20; round++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          subs.save(
            fans[i % fans.length]!,
            { endpoint: endpoint(`race-${cookie}-${round}-${i}`), keys },
            true,
          ),
        ),
      );
      counts.push((await rowsOf(fans.map((f) => f.id))).length);
    }
    expect(counts).toEqual(counts.map(() => PUSH_SUBSCRIPTIONS_PER_BROWSER));
    // The same browser's chat with another creator has its own allowance.
    const elsewhere = await newFan(otherCreatorId, cookie);
    await subs.save(elsewhere, { endpoint: endpoint('elsewhere'), keys }, true);
    expect(await rowsOf([elsewhere.id])).toHaveLength(1);
    expect(await rowsOf(fans.map((f) => f.id))).toHaveLength(PUSH_SUBSCRIPTIONS_PER_BROWSER);
  });

  it('treats one endpoint as one device per creator: a repeat updates, another fan takes it over', async () => {
    const a = await newFan(creatorId, `cookie-${randomBytes(4).toString('hex')}`);
    const b = await newFan(creatorId, `cookie-${randomBytes(4).toString('hex')}`);
    const other = await newFan(otherCreatorId, `cookie-${randomBytes(4).toString('hex')}`);
    const subs = pushSubscriptions(handle.db);
    const first = await subs.save(a, { endpoint: endpoint('same'), keys }, true);
    const again = await subs.save(a, { endpoint: endpoint('same'), keys }, false);
    expect(again.id).toBe(first.id);
    expect(await rowsOf([a.id])).toEqual([
      { endpoint: endpoint('same'), fan_id: a.id, creator_id: creatorId, preview: false },
    ]);
    // The endpoint is the device: subscribed by another fan of the creator, it moves.
    const moved = await subs.save(b, { endpoint: endpoint('same'), keys }, true);
    expect(moved.id).toBe(first.id);
    expect(await rowsOf([a.id])).toEqual([]);
    expect(await rowsOf([b.id])).toHaveLength(1);
    // Another creator's chat on the same device is its own row.
    await subs.save(other, { endpoint: endpoint('same'), keys }, true);
    const all = await handle.db
      .selectFrom('push_subscriptions')
      .select('creator_id')
      .where('endpoint', '=', endpoint('same'))
      .execute();
    expect(all.map((r) => r.creator_id).sort()).toEqual([creatorId, otherCreatorId].sort());
  });

  it('claims one push per message and device, once; a released claim may be taken again', async () => {
    const fan = await newFan(creatorId, `cookie-${randomBytes(4).toString('hex')}`);
    const subs = pushSubscriptions(handle.db);
    const { id } = await subs.save(fan, { endpoint: endpoint('claims'), keys }, true);
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => subs.claimDelivery(id, 'message', '42')),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await subs.claimDelivery(id, 'message', '43')).toBe(true);
    expect(await subs.claimDelivery(id, 'notice', '42')).toBe(true);
    await subs.releaseDelivery(id, 'message', '42');
    expect(await subs.claimDelivery(id, 'message', '42')).toBe(true);
    expect(await subs.claimDelivery(id, 'message', '42')).toBe(false);
  });
});

describe('push endpoints: only the browsers push services, unless PUSH_ALLOWED_HOSTS says so', () => {
  const refusedCode = (url: string, allowed: string[] = []) => {
    try {
      checkPushServiceHost(url, allowed);
      return 'accepted';
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).reason).toBe('invalid');
      return (err as DomainError).code;
    }
  };

  it.each([
    'https://fcm.googleapis.com/fcm/send/abc:def',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
    'https://push.services.mozilla.com/wpush/v1/x',
    'https://web.push.apple.com/QGx',
    'https://api.push.apple.com/3/device/x',
    'https://db5p.notify.windows.com/w/?token=x',
    'https://FCM.googleapis.com./fcm/send/x',
  ])('accepts %s', (url) => {
    expect(checkPushServiceHost(url, [])).toEqual({ listed: false });
  });

  it.each([
    'https://example.com/push/x',
    'https://attacker.example/fcm.googleapis.com',
    'https://fcm.googleapis.com.attacker.example/x',
    'https://push.apple.com.attacker.example/x',
    'https://evilpush.apple.com/x',
    'https://googleapis.com/x',
    'http://fcm.googleapis.com/fcm/send/x',
    'https://fcm.googleapis.com:8443/fcm/send/x',
    'https://user:pw@fcm.googleapis.com/fcm/send/x',
    'ftp://fcm.googleapis.com/x',
    'http://127.0.0.1:9999/push/x',
  ])('refuses %s', (url) => {
    expect(refusedCode(url)).toBe('push_endpoint_not_allowed');
  });

  it('adds the hosts PUSH_ALLOWED_HOSTS lists, by host or host:port, http too', () => {
    expect(checkPushServiceHost('http://127.0.0.1:9999/push/x', ['127.0.0.1'])).toEqual({ listed: true });
    expect(checkPushServiceHost('http://127.0.0.1:9999/push/x', ['127.0.0.1:9999'])).toEqual({
      listed: true,
    });
    expect(refusedCode('http://127.0.0.1:9998/push/x', ['127.0.0.1:9999'])).toBe('push_endpoint_not_allowed');
    expect(checkPushServiceHost('https://push.example.net/x', ['push.example.net'])).toEqual({
      listed: true,
    });
    // The known services stay allowed beside the list.
    expect(checkPushServiceHost('https://fcm.googleapis.com/x', ['127.0.0.1'])).toEqual({ listed: false });
  });

  it('calls a malformed URL an invalid subscription', () => {
    expect(refusedCode('not a url')).toBe('invalid_subscription');
  });
});
