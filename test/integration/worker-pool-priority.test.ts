/**
 * The pool's queue classes with real threads: while a flood of RPC-class tasks waits, a
 * consensus task queued after all of them runs as soon as a thread frees up, block serving runs
 * before the flood too, and tasks of one class keep their order. Asserted on the order in which
 * tasks finish, never on timings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedEd25519Batch } from '../support/packed-ed25519-batch.js';
import { WorkerPool, type TaskPriority } from '../../src/workers/index.js';

const THREADS = 2;
const FLOOD = 24;

describe('WorkerPool priority classes (real threads)', () => {
  /** Two threads, as on the development machine; one, where the order of completion is exact. */
  const pools = new Map<number, WorkerPool>();
  /** Some 10 ms of work per task: the flood outlasts the time it takes to queue everything. */
  const batch = packedEd25519Batch(160);

  beforeAll(async () => {
    for (const threads of [THREADS, 1]) {
      const pool = new WorkerPool({ threads });
      pools.set(threads, pool);
      // Threads started and warm: the flood's first tasks go straight to them, the rest wait.
      await Promise.all(Array.from({ length: threads * 2 }, () => pool.run('ed25519.verifyBatch', batch, { priority: 'reads' })));
    }
  });
  afterAll(async () => {
    for (const pool of pools.values()) await pool.close();
  });

  /** Queues the flood, then `late` tasks; returns the labels in the order the tasks finished. */
  async function finishOrder(
    threads: number,
    floodPriority: TaskPriority,
    late: readonly { label: string; priority: TaskPriority }[],
  ): Promise<string[]> {
    const pool = pools.get(threads) as WorkerPool;
    const finished: string[] = [];
    const run = (label: string, priority: TaskPriority) =>
      pool.run<Uint8Array>('ed25519.verifyBatch', batch, { priority }).then((answers) => {
        expect(answers.every((answer) => answer === 1)).toBe(true);
        finished.push(label);
      });
    const tasks = Array.from({ length: FLOOD }, (_, i) => run(`flood-${i}`, floodPriority));
    expect(pool.queueSizeOf(floodPriority)).toBeGreaterThan(FLOOD - threads * 2);
    for (const { label, priority } of late) tasks.push(run(label, priority));
    await Promise.all(tasks);
    return finished;
  }

  it('runs a consensus task queued behind an RPC flood before the flood drains', async () => {
    const order = await finishOrder(THREADS, 'reads', [{ label: 'block', priority: 'consensus' }]);
    // It takes the first thread that frees up: only the flood tasks running when it was queued
    // (one per thread), and the few the other threads start meanwhile, finish before it (a few
    // at most; the bound leaves room for a thread the OS keeps waiting on a busy machine). As one
    // FIFO it would finish last (see the last test).
    expect(order.indexOf('block')).toBeLessThan(FLOOD / 2);
  });

  it('serves the classes in order (consensus, block serving, reads), each in arrival order', async () => {
    // One thread: tasks run one after another, so they finish in the order they were taken.
    const order = await finishOrder(1, 'reads', [
      { label: 'serve-0', priority: 'block-serving' },
      { label: 'serve-1', priority: 'block-serving' },
      { label: 'block', priority: 'consensus' },
    ]);
    // flood-0 was running when the others were queued.
    expect(order).toEqual(['flood-0', 'block', 'serve-0', 'serve-1', ...Array.from({ length: FLOOD - 1 }, (_, i) => `flood-${i + 1}`)]);
  });

  it('is a plain FIFO without classes: the same late task then waits for the whole flood', async () => {
    const order = await finishOrder(1, 'reads', [{ label: 'late', priority: 'reads' }]);
    expect(order.at(-1)).toBe('late');
  });
});
