import type { DbHandle } from '@fanpilot/db';
import { openTestDb, seedCreator, seedFan } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The fan's memory job moves `fans.memory_through` while the fan may be asking again. A question
// takes the creator's change-feed row first, then the fan row (its counters). If moving
// `memory_through` were announced on the change feed, the memory job would take the two in the
// opposite order and the two could deadlock (a 500 for the fan). It is not announced: the job never
// waits on the change feed while it holds the fan row.
describe.skipIf(!process.env.TEST_DATABASE_URL)('the memory job and a question on the same fan', () => {
  let handle: DbHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, close } = await openTestDb(process.env.TEST_DATABASE_URL, 4));
  });
  afterAll(async () => {
    await close?.();
  });

  it('moving memory_through does not wait on the change feed a question holds, so neither can deadlock', async () => {
    const { creatorId } = await seedCreator(handle.db);
    const fan = await seedFan(handle.db, creatorId);
    await handle.db.connection().execute(async (question) => {
      await sql`begin`.execute(question);
      // What a question's message insert does first: the creator's change-feed row.
      await sql`select note_change('c', ${creatorId}, 'messages')`.execute(question);
      await handle.db.connection().execute(async (memory) => {
        await sql`begin`.execute(memory);
        await sql`set local lock_timeout = '3s'`.execute(memory);
        // The memory job's claim: it must not need the row the question holds.
        await memory.updateTable('fans').set({ memory_through: '1' }).where('id', '=', fan.id).execute();
        await sql`commit`.execute(memory);
      });
      // Then the question's counters on the fan row, and its commit.
      await sql`update fans set message_count = message_count + 1 where id = ${fan.id}`.execute(question);
      await sql`commit`.execute(question);
    });
    const row = await handle.db
      .selectFrom('fans')
      .select(['memory_through', 'message_count'])
      .where('id', '=', fan.id)
      .executeTakeFirstOrThrow();
    expect(String(row.memory_through)).toBe('1');
    expect(Number(row.message_count)).toBeGreaterThanOrEqual(1);
  });
});
