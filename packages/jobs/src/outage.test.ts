import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import getPort from 'get-port';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  attemptsWithin,
  type ConnectionEvent,
  createJobRunner,
  type JobRunner,
  type RetryPolicy,
  retryDelay,
} from './index.ts';

const until = async (check: () => boolean | Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('retries budgeted in time', () => {
  const policy: RetryPolicy = { backoffMs: 2_000, maxBackoffMs: 300_000, retryForMs: 3_600_000 };

  it('waits grow exponentially up to the cap', () => {
    expect([1, 2, 3, 8, 9, 10, 30].map((a) => retryDelay(policy, a))).toEqual([
      2_000, 4_000, 8_000, 256_000, 300_000, 300_000, 300_000,
    ]);
  });

  it('fits as many tries as the time budget holds', () => {
    const n = attemptsWithin(policy);
    let waited = 0;
    for (let a = 1; a < n; a++) waited += retryDelay(policy, a);
    expect(waited).toBeLessThanOrEqual(policy.retryForMs);
    expect(waited + retryDelay(policy, n)).toBeGreaterThan(policy.retryForMs);
    // 2+4+…+256 s (8.5 min), then 5-minute waits to the hour.
    expect(n).toBe(19);
  });

  it('the in-process runner retries for the budget, then reports the failure as final', async () => {
    const runner = createJobRunner({
      retry: { flaky: { backoffMs: 10, maxBackoffMs: 40, retryForMs: 200 } },
      onError: (_q, _e, _d, final) => finals.push(final),
    });
    const finals: boolean[] = [];
    const tries: number[] = [];
    runner.work({
      flaky: async (_data, ctx) => {
        tries.push(ctx.attempt);
        throw new Error('model unavailable');
      },
    });
    await runner.enqueue('flaky', {}, { jobId: 'q1' });
    const expected = attemptsWithin({ backoffMs: 10, maxBackoffMs: 40, retryForMs: 200 });
    await until(() => finals.includes(true));
    expect(tries).toHaveLength(expected);
    expect(finals.filter(Boolean)).toHaveLength(1);
    await runner.close();
  });
});

/** A free TCP port on loopback. */
const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

/** A Redis of the test's own, to kill and bring back. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const { Redis } = await import('ioredis');
  await until(async () => {
    const probe = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      await probe.ping();
      return true;
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  });
  return child;
}

const stopRedis = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

const hasRedisServer = await new Promise<boolean>((resolve) => {
  const probe = spawn('redis-server', ['--version'], { stdio: 'ignore' });
  probe.once('error', () => resolve(false));
  probe.once('exit', (code) => resolve(code === 0));
});

describe.runIf(hasRedisServer)('a Redis that goes away (BullMQ)', () => {
  let redis: ChildProcess | undefined;
  let runner: JobRunner | undefined;
  afterEach(async () => {
    await runner?.close().catch(() => {});
    runner = undefined;
    if (redis) await stopRedis(redis);
  });
  afterAll(async () => {
    if (redis) await stopRedis(redis);
  });

  it('enqueue fails fast while Redis is down, the outage is reported once, and enqueue works again after', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const events: ConnectionEvent[] = [];
    runner = createJobRunner({
      redisUrl: `redis://127.0.0.1:${port}`,
      prefix: `t-${randomUUID()}`,
      onConnection: (e) => events.push(e),
    });
    await runner.enqueue('answers', { n: 0 }, { jobId: 'a0' });
    await stopRedis(redis);

    const took: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const started = Date.now();
      await expect(runner.enqueue('answers', { n: i }, { jobId: `a${i}` })).rejects.toThrow();
      took.push(Date.now() - started);
    }
    console.log(`enqueue with Redis down failed after ${took.join(', ')} ms`);
    expect(Math.max(...took)).toBeLessThan(2_000);
    expect(events.filter((e) => e.state === 'down')).toHaveLength(1);

    redis = await startRedis(port);
    await until(async () => {
      try {
        await runner!.enqueue('answers', { n: 9 }, { jobId: 'a9' });
        return true;
      } catch {
        return false;
      }
    }, 30_000);
    const up = events.filter((e) => e.state === 'up');
    expect(up).toHaveLength(1);
    expect(up[0]).toMatchObject({ state: 'up', errors: expect.any(Number) });
  }, 60_000);

  it('a job whose tries ran out is queued again only when asked to replace the failed one', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    runner = createJobRunner({
      redisUrl: `redis://127.0.0.1:${port}`,
      prefix: `t-${randomUUID()}`,
      backoffMs: 10,
    });
    let fail = true;
    let done = 0;
    runner.work({
      answers: async () => {
        if (fail) throw new Error('model down');
        done++;
      },
    });
    const r = runner;
    await r.enqueue('answers', {}, { jobId: 'q', attempts: 2 });
    await until(async () => (await r.pending('answers')) === 0);
    await new Promise((res) => setTimeout(res, 200));
    fail = false;
    await r.enqueue('answers', {}, { jobId: 'q' });
    await new Promise((res) => setTimeout(res, 500));
    expect(done).toBe(0);
    await r.enqueue('answers', {}, { jobId: 'q', replaceFailed: true });
    await until(() => done === 1);
  }, 60_000);
});
