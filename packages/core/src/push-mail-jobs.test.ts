import { randomBytes } from 'node:crypto';
import type { DbHandle } from '@fanpilot/db';
import { openTestDb } from '@fanpilot/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendToFan } from './conversations/index.ts';
import { fansRepository } from './fans.ts';
import { JOB_OUTBOX_CHANNEL, takeJobOutbox } from './job-outbox.ts';
import { queueMail } from './mail-outbox.ts';
import { messagesRepository } from './messages.ts';
import { noticesRepository } from './notices.ts';

// Push and mail are jobs of the one job outbox (record 0077), written with the change they follow.
describe('push and mail follow committed changes (the job outbox)', () => {
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
  /** The waiting jobs named `name`, oldest first (every other job is taken too). */
  const takeAll = async (name = 'fan-push') => {
    const taken: object[] = [];
    await takeJobOutbox(handle.db, async (jobs) => {
      taken.push(...jobs.filter((j) => j.name === name).map((j) => j.payload));
    });
    return taken;
  };
  const waiting = async (name = 'fan-push') => {
    const row = await handle.db
      .selectFrom('job_outbox')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return Number(row.n);
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
    await handle.db.deleteFrom('job_outbox').execute();
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
    expect(await waiting()).toBe(0);
    expect(await takeAll()).toEqual([]);
  });

  it('a reply or a mail rolled back asks for nothing; committed, each is one job', async () => {
    const fan = await newFan();
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await queueMail(trx, {
          purpose: 'test',
          to: 'gone@example.com',
          subject: 'Gone',
          text: 'Never sent',
        });
        await noticesRepository(trx).insert(creatorId, 'Never pushed', true);
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
    expect(await waiting()).toBe(0);
    expect(await waiting('mail')).toBe(0);
    expect(
      await handle.db
        .selectFrom('mail_outbox')
        .where('to_address', '=', 'gone@example.com')
        .select('id')
        .execute(),
    ).toEqual([]);

    const mailId = await handle.db
      .transaction()
      .execute((trx) =>
        queueMail(trx, { purpose: 'test', to: 'kept@example.com', subject: 'Hi', text: 'Sent' }),
      );
    expect(await takeAll('mail')).toEqual([{ mailId }]);
  });

  it('keeps the pushes when asking for them fails, and hands them over on the next try', async () => {
    const fan = await newFan();
    const sent = await sendToFan({ db: handle.db }, { creatorId, to: fan, text: 'Still there?' });
    await expect(
      takeJobOutbox(handle.db, async () => {
        throw new Error('queue down');
      }),
    ).rejects.toThrow('queue down');
    expect(await waiting()).toBe(1);
    expect(await takeAll()).toEqual([{ kind: 'message', id: sent.messageId }]);
  });

  it('two drains side by side never take the same push', async () => {
    const fan = await newFan();
    for (let i = 0; i < 30; i++) await sendToFan({ db: handle.db }, { creatorId, to: fan, text: `n${i}` });
    const taken: string[] = [];
    const drain = async () => {
      while (
        (await takeJobOutbox(
          handle.db,
          async (jobs) => {
            taken.push(...jobs.filter((j) => j.name === 'fan-push').map((j) => j.jobId));
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
    const stop = await handle.listen(JOB_OUTBOX_CHANNEL, (payload) => heard.push(payload));
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
