import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobRunner, type JobRunner } from './index.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const modes: [string, string | undefined][] = [['in-process', undefined]];
if (redisUrl) modes.push(['redis', redisUrl]);

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(modes)('job runner (%s)', (_mode, url) => {
  let runner: JobRunner;
  afterEach(async () => {
    await runner?.close();
  });

  it('runs a job and retries it with backoff until it succeeds', async () => {
    runner = createJobRunner({ redisUrl: url, backoffMs: 10, prefix: `t-${randomUUID()}` });
    const attempts: number[] = [];
    runner.work({
      flaky: async (_data, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt < 3) throw new Error('provider unreachable');
      },
    });
    await runner.enqueue('flaky', { id: 1 });
    await until(() => attempts.length === 3);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('idle() waits for queued, retrying and chained jobs, not a fixed time', async () => {
    runner = createJobRunner({ redisUrl: url, backoffMs: 30, prefix: `t-${randomUUID()}` });
    const done: string[] = [];
    runner.work({
      first: async (_data, ctx) => {
        if (ctx.attempt < 3) throw new Error('not yet');
        await runner.enqueue('second', {});
        done.push('first');
      },
      second: async () => {
        await new Promise((r) => setTimeout(r, 50));
        done.push('second');
      },
    });
    await runner.enqueue('first', {});
    await runner.idle();
    // Two retries (30 + 60 ms) and a 50 ms job it enqueued: idle only once all of it ran.
    expect(done).toEqual(['first', 'second']);
    expect(await runner.pending('first')).toBe(0);
    expect(await runner.pending('second')).toBe(0);
  });

  it('idle() gives up with an error when the jobs never finish', async () => {
    runner = createJobRunner({ redisUrl: url, prefix: `t-${randomUUID()}` });
    runner.work({ stuck: () => new Promise<void>((r) => setTimeout(r, 2_000)) });
    await runner.enqueue('stuck', {});
    await expect(runner.idle({ timeoutMs: 300 })).rejects.toThrow(/still running/);
  });

  it('gives up after the last attempt and reports it as final', async () => {
    const finals: boolean[] = [];
    runner = createJobRunner({
      redisUrl: url,
      backoffMs: 5,
      attempts: 2,
      prefix: `t-${randomUUID()}`,
      onError: (_q, _e, _d, final) => finals.push(final),
    });
    runner.work({ broken: async () => Promise.reject(new Error('always')) });
    await runner.enqueue('broken', {});
    await until(() => finals.length === 2);
    expect(finals).toEqual([false, true]);
  });

  it('deduplicates by job id while the job waits', async () => {
    runner = createJobRunner({ redisUrl: url, prefix: `t-${randomUUID()}` });
    let runs = 0;
    await runner.enqueue('once', { n: 1 }, { jobId: 'same' });
    await runner.enqueue('once', { n: 2 }, { jobId: 'same' });
    runner.work({
      once: async () => {
        runs++;
      },
    });
    await until(() => runs >= 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(runs).toBe(1);
  });

  it('runs lower priorities first, equal ones in the order added, unprioritised ones before all', async () => {
    runner = createJobRunner({ redisUrl: url, prefix: `t-${randomUUID()}` });
    const order: string[] = [];
    for (const [name, priority] of [
      ['e1', 1],
      ['e2', 2],
      ['e3', 3],
      ['b1', 1],
      ['huge', 10 ** 9],
      ['c2', 2],
      ['none', undefined],
    ] as const) {
      await runner.enqueue('ordered', { name }, priority === undefined ? {} : { priority });
    }
    runner.work(
      {
        ordered: async (data: { name: string }) => {
          order.push(data.name);
        },
      },
      { concurrency: 1 },
    );
    await until(() => order.length === 7);
    expect(order).toEqual(['none', 'e1', 'b1', 'e2', 'c2', 'e3', 'huge']);
  });
});

describe.runIf(redisUrl)('the first lane (record 0087, BullMQ)', () => {
  let runner: JobRunner | undefined;
  afterEach(async () => {
    await runner?.close();
    runner = undefined;
  });

  /** A handler whose jobs run until released, noting which started. */
  const gated = () => {
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const handler = (data: { id: string }) =>
      new Promise<void>((resolve) => {
        started.push(data.id);
        gates.set(data.id, resolve);
      });
    const release = (id: string) => gates.get(id)?.();
    const releaseAll = () => {
      for (const open of gates.values()) open();
    };
    return { started, handler, release, releaseAll };
  };

  it("a creator's first question runs while another's flood holds every slot of the queue", async () => {
    runner = createJobRunner({
      redisUrl,
      prefix: `t-${randomUUID()}`,
      lanes: { answer: { upToPriority: 2 } },
    });
    const { started, handler, releaseAll } = gated();
    runner.work({ answer: handler as never }, { concurrency: 2 });
    // One creator's flood: its questions 3 to 12 (its first two would be in the lane too).
    for (let k = 3; k <= 12; k++)
      await runner.enqueue('answer', { id: `flood-${k}` }, { jobId: `flood-${k}`, priority: k });
    await until(() => started.length === 2);
    expect(started).toEqual(['flood-3', 'flood-4']);
    // Both slots of the queue are held; another creator's first question still starts.
    await runner.enqueue('answer', { id: 'other-1' }, { jobId: 'other-1', priority: 1 });
    await until(() => started.includes('other-1'));
    expect(started.filter((id) => id.startsWith('flood-'))).toHaveLength(2);
    // Counts speak of the queue, both lanes together; all of it runs.
    expect(await runner.pending('answer')).toBe(11);
    const all = (async () => {
      while (started.length < 11) {
        releaseAll();
        await new Promise((r) => setTimeout(r, 10));
      }
      releaseAll();
    })();
    await all;
    await runner.idle({ queues: ['answer'] });
    expect(new Set(started).size).toBe(11);
    expect(await runner.pending('answer')).toBe(0);
  });

  it('a job waiting in one lane is not queued again in the other under the same id', async () => {
    runner = createJobRunner({
      redisUrl,
      prefix: `t-${randomUUID()}`,
      lanes: { answer: { upToPriority: 2 } },
    });
    const { started, handler, releaseAll } = gated();
    // Queued before any worker runs: first at priority 7 (the queue), then again at 1 (the lane).
    await runner.enqueue('answer', { id: 'q' }, { jobId: 'q', priority: 7 });
    await runner.enqueue('answer', { id: 'q' }, { jobId: 'q', priority: 1 });
    await runner.enqueue('answer', { id: 'r' }, { jobId: 'r', priority: 1 });
    await runner.enqueue('answer', { id: 'r' }, { jobId: 'r', priority: 9 });
    expect(await runner.pending('answer')).toBe(2);
    runner.work({ answer: handler as never }, { concurrency: 2 });
    await until(() => started.length === 2);
    releaseAll();
    await runner.idle({ queues: ['answer'] });
    expect(started.sort()).toEqual(['q', 'r']);
  });
});
