import { describe, expect, it } from 'vitest';
import {
  createLocalLock,
  createOutbox,
  memoryOutboxStore,
  type OutboxItem,
  type SendOutcome,
} from './outbox.ts';

const item = (id: string, createdAt: number): OutboxItem => ({
  id,
  creator: 'ana',
  fanId: 'mobile_fan_abc_1',
  message: `message ${id}`,
  createdAt,
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('offline outbox', () => {
  it('sends waiting messages oldest first and removes each once the server took it', async () => {
    const store = memoryOutboxStore();
    const outbox = createOutbox(store, createLocalLock());
    await outbox.enqueue(item('b', 2));
    await outbox.enqueue(item('a', 1));
    const sent: string[] = [];
    const result = await outbox.flush(async (i) => {
      sent.push(i.id);
      return 'sent';
    });
    expect(sent).toEqual(['a', 'b']);
    expect(result.sent.map((i) => i.id)).toEqual(['a', 'b']);
    expect(result.remaining).toBe(0);
    expect(store.items.size).toBe(0);
  });

  it('sends each message exactly once when several flushes race (online event, sync, poll)', async () => {
    const store = memoryOutboxStore([item('a', 1), item('b', 2), item('c', 3)]);
    const outbox = createOutbox(store, createLocalLock());
    const calls: string[] = [];
    const slowSend = async (i: OutboxItem): Promise<SendOutcome> => {
      calls.push(i.id);
      await tick();
      return 'sent';
    };
    const results = await Promise.all([
      outbox.flush(slowSend),
      outbox.flush(slowSend),
      outbox.flush(slowSend),
    ]);
    expect(calls).toEqual(['a', 'b', 'c']);
    expect(results.flatMap((r) => r.sent.map((i) => i.id))).toEqual(['a', 'b', 'c']);
    expect(store.items.size).toBe(0);
  });

  it('keeps a message while the network is down, and stops there so order holds', async () => {
    const store = memoryOutboxStore([item('a', 1), item('b', 2)]);
    const outbox = createOutbox(store, createLocalLock());
    const calls: string[] = [];
    const offline = await outbox.flush(async (i) => {
      calls.push(i.id);
      return 'retry';
    });
    expect(calls).toEqual(['a']);
    expect(offline).toMatchObject({ sent: [], rejected: [], remaining: 2 });
    expect(store.items.size).toBe(2);

    const back = await outbox.flush(async () => 'sent');
    expect(back.sent.map((i) => i.id)).toEqual(['a', 'b']);
    expect(store.items.size).toBe(0);
  });

  it('treats a thrown send as "try later", never as sent', async () => {
    const store = memoryOutboxStore([item('a', 1)]);
    const outbox = createOutbox(store, createLocalLock());
    const result = await outbox.flush(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(result.remaining).toBe(1);
    expect(store.items.has('a')).toBe(true);
  });

  it('drops a message the server refuses for good and reports it, then goes on', async () => {
    const store = memoryOutboxStore([item('bad', 1), item('good', 2)]);
    const outbox = createOutbox(store, createLocalLock());
    const result = await outbox.flush(async (i) => (i.id === 'bad' ? 'rejected' : 'sent'));
    expect(result.rejected.map((i) => i.id)).toEqual(['bad']);
    expect(result.sent.map((i) => i.id)).toEqual(['good']);
    expect(store.items.size).toBe(0);
  });

  it('a message queued during a flush is sent by the next flush, once', async () => {
    const store = memoryOutboxStore([item('a', 1)]);
    const outbox = createOutbox(store, createLocalLock());
    const calls: string[] = [];
    const first = outbox.flush(async (i) => {
      calls.push(i.id);
      await tick();
      return 'sent';
    });
    const queued = outbox.enqueue(item('late', 5));
    await Promise.all([first, queued]);
    await outbox.flush(async (i) => {
      calls.push(i.id);
      return 'sent';
    });
    await outbox.flush(async (i) => {
      calls.push(i.id);
      return 'sent';
    });
    expect(calls).toEqual(['a', 'late']);
  });

  it('the local lock runs tasks one at a time and survives a failing task', async () => {
    const lock = createLocalLock();
    const order: string[] = [];
    const failing = lock('x', async () => {
      order.push('1 start');
      await tick();
      order.push('1 end');
      throw new Error('boom');
    });
    const next = lock('x', async () => {
      order.push('2');
      return 2;
    });
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe(2);
    expect(order).toEqual(['1 start', '1 end', '2']);
  });
});
