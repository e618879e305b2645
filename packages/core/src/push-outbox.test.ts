import { randomBytes } from 'node:crypto';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb } from '@fanpilot/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendToFan } from './conversations/index.ts';
import { fansRepository } from './fans.ts';
import { messagesRepository } from './messages.ts';
import { noticesRepository } from './notices.ts';
import { PUSH_OUTBOX_CHANNEL, pushOutboxSize, takePushOutbox } from './push-outbox.ts';

describe('push follows committed changes (the push outbox)', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  let creatorId: string;

  const newFan = () =>
    fansRepository(handle.db).insertOrGet({
      creatorId,
      fanKey: `fan_${randomBytes(6).toString('hex')}`,
      name: null,
      cookieHash: `cookie-${randomBytes(4).toString('hex')}`,
    });
  const takeAll = async () => {
    const taken: { kind: string; id: string }[] = [];
    await takePushOutbox(handle.db, async (jobs) => {
      taken.push(...jobs);
    });
    return taken;
  };

  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
    creatorId = (
      await handle.db
        .insertInto('creators')
        .values({
          google_sub: `sub-${randomBytes(4).toString('hex')}`,
          email: 'pia@example.com',
          name: 'Pia',
          username: `pia${randomBytes(3).toString('hex')}`,
          description: '',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await close?.();
  });
  beforeEach(async () => {
    await handle.db.deleteFrom('push_outbox').execute();
  });

  it("asks for a push for every committed message to a fan, never for the fan's own or a quiet notice", async () => {
    const fan = await newFan();
    const messages = messagesRepository(handle.db);
    await messages.insert({
      creatorId,
      fanRowId: fan.id,
      sender: 'fan',
      body: 'Hello?',
      status: 'pending',
      replyTo: null,
      fanName: null,
    });
    const sent = await sendToFan({ db: handle.db }, { creatorId, to: fan, text: 'Welcome!' });
    const quiet = await noticesRepository(handle.db).insert(creatorId, 'Quiet one.');
    const loud = await noticesRepository(handle.db).insert(creatorId, 'Live tonight!', true);
    expect(await takeAll()).toEqual([
      { kind: 'message', id: sent.messageId },
      { kind: 'notice', id: loud.id },
    ]);
    expect(quiet.push).toBe(false);
    // Taken once: the outbox is empty now.
    expect(await pushOutboxSize(handle.db)).toBe(0);
    expect(await takeAll()).toEqual([]);
  });

  it('a reply rolled back asks for nothing', async () => {
    const fan = await newFan();
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await messagesRepository(trx).insert({
          creatorId,
          fanRowId: fan.id,
          sender: 'creator',
          body: 'Oops',
          status: null,
          replyTo: null,
          fanName: null,
        });
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await pushOutboxSize(handle.db)).toBe(0);
  });

  it('keeps the pushes when asking for them fails, and hands them over on the next try', async () => {
    const fan = await newFan();
    const sent = await sendToFan({ db: handle.db }, { creatorId, to: fan, text: 'Still there?' });
    await expect(
      takePushOutbox(handle.db, async () => {
        throw new Error('queue down');
      }),
    ).rejects.toThrow('queue down');
    expect(await pushOutboxSize(handle.db)).toBe(1);
    expect(await takeAll()).toEqual([{ kind: 'message', id: sent.messageId }]);
  });

  it('two drains side by side never take the same push', async () => {
    const fan = await newFan();
    for (let i = 0; i < 30; i++) await sendToFan({ db: handle.db }, { creatorId, to: fan, text: `n${i}` });
    const taken: string[] = [];
    const drain = async () => {
      while (
        (await takePushOutbox(
          handle.db,
          async (jobs) => {
            taken.push(...jobs.map((j) => j.id));
            await new Promise((r) => setTimeout(r, 5));
          },
          4,
        )) > 0
      ) {
        // until empty
      }
    };
    await Promise.all([drain(), drain()]);
    expect(taken).toHaveLength(30);
    expect(new Set(taken).size).toBe(30);
  });

  it('wakes a listener on commit', async () => {
    const heard: string[] = [];
    const stop = await handle.listen(PUSH_OUTBOX_CHANNEL, (payload) => heard.push(payload));
    try {
      await noticesRepository(handle.db).insert(creatorId, 'Wake up', true);
      const deadline = Date.now() + 5_000;
      while (heard.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(heard.length).toBeGreaterThan(0);
    } finally {
      await stop();
    }
  });
});
