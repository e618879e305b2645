import { DRAFT_NOTICE_MAX_BYTES, decodeDraftNotice } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DRAFT_EVERY_MS, draftPublisher, visibleDraft } from './drafts.ts';

describe('an answer draft as the fan sees it', () => {
  it('never shows the gap tag, whole or still being written', () => {
    expect(visibleDraft('Water it [not in knowledge] weekly')).toBe('Water it weekly');
    expect(visibleDraft('Water it [not in kno')).toBe('Water it');
    expect(visibleDraft('Water it [')).toBe('Water it');
    // A bracket that is not the tag stays.
    expect(visibleDraft('See [the guide')).toBe('See [the guide');
    expect(visibleDraft('  Hello ')).toBe('Hello');
  });
});

describe('the drafts a publisher sends', () => {
  const FAN = '6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab';
  const QUESTION = '0b1c2d3e-4a5b-4c6d-8e7f-0123456789cd';

  /** A database that answers nothing and records each pg_notify payload. */
  function recordingDb() {
    const payloads: string[] = [];
    const db = new Kysely<Database>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (k) => new PostgresIntrospector(k),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
      log: (event) => {
        if (event.level === 'query' && event.query.sql.includes('pg_notify'))
          payloads.push(String(event.query.parameters[0]));
      },
    });
    return { db, payloads };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('are draft notices of the live protocol; one past the NOTIFY limit is skipped', async () => {
    vi.useFakeTimers();
    const { db, payloads } = recordingDb();
    const publisher = draftPublisher(db, FAN, QUESTION);
    publisher.update('Step 1: water [not in kno');
    await vi.advanceTimersByTimeAsync(DRAFT_EVERY_MS);
    publisher.update('x'.repeat(DRAFT_NOTICE_MAX_BYTES));
    await vi.advanceTimersByTimeAsync(DRAFT_EVERY_MS);
    publisher.update('Step 1: water. Step 2: wait');
    await vi.advanceTimersByTimeAsync(DRAFT_EVERY_MS);
    await publisher.discard();
    expect(payloads.map(decodeDraftNotice)).toEqual([
      { fanId: FAN, replyTo: QUESTION, done: false, text: 'Step 1: water' },
      { fanId: FAN, replyTo: QUESTION, done: false, text: 'Step 1: water. Step 2: wait' },
      { fanId: FAN, replyTo: QUESTION, done: true, text: '' },
    ]);
  });

  it('sends nothing for a question with no fan', async () => {
    const { db, payloads } = recordingDb();
    const publisher = draftPublisher(db, null, QUESTION);
    publisher.update('Hello');
    await publisher.discard();
    expect(payloads).toEqual([]);
  });
});
