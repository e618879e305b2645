import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from './database.ts';
import { withFaults, writesAiReply } from './faults.ts';
import { seedCreator } from './seed.ts';

describe('fault injection on a Kysely handle', () => {
  let opened: Awaited<ReturnType<typeof openTestDb>>;
  beforeAll(async () => {
    opened = await openTestDb(process.env.TEST_DATABASE_URL, 2);
  });
  afterAll(() => opened?.close());

  const aiReply = (creatorId: string, fanId: string | null, replyTo: string) => ({
    creator_id: creatorId,
    fan_id: fanId,
    sender: 'Creatorai' as const,
    body: 'Twice a day.',
    status: null,
    reply_to: replyTo,
  });

  it('fails the chosen queries only, as often as told, and a failure rolls its transaction back', async () => {
    const db = opened.handle.db;
    const seeded = await seedCreator(db);
    const [question] = await seeded.ask(1);
    const fan = await db
      .selectFrom('messages')
      .select('fan_id')
      .where('id', '=', question!)
      .executeTakeFirstOrThrow();
    const faulty = withFaults(db, { when: writesAiReply, error: () => new Error('worker killed'), times: 1 });

    // Reads and other writes pass.
    expect(
      await faulty.db.selectFrom('creators').select('id').where('id', '=', seeded.creatorId).execute(),
    ).toHaveLength(1);
    await faulty.db.updateTable('messages').set({ fan_name: 'Finn' }).where('id', '=', question!).execute();

    // The first AI reply fails, and the transaction it was in leaves nothing behind.
    await expect(
      faulty.db.transaction().execute(async (trx) => {
        await trx.updateTable('messages').set({ status: 'answered' }).where('id', '=', question!).execute();
        await trx
          .insertInto('messages')
          .values(aiReply(seeded.creatorId, fan.fan_id, question!))
          .execute();
      }),
    ).rejects.toThrow('worker killed');
    expect(faulty.thrown()).toBe(1);
    const after = await db
      .selectFrom('messages')
      .select(['status', 'fan_name'])
      .where('id', '=', question!)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ status: 'pending', fan_name: 'Finn' });

    // `times: 1`: the next one goes through; the handle it wraps never failed.
    await faulty.db
      .insertInto('messages')
      .values(aiReply(seeded.creatorId, fan.fan_id, question!))
      .execute();
    expect(faulty.thrown()).toBe(1);
    const replies = await db.selectFrom('messages').select('id').where('reply_to', '=', question!).execute();
    expect(replies).toHaveLength(1);
  });
});
