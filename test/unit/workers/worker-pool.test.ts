/**
 * The pool with real threads: tasks run in a worker loaded from the TypeScript sources, a thread
 * that dies mid-task rejects that task with WorkerPoolError, and the pool goes on working.
 */
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { packedEd25519Batch } from '../../support/packed-ed25519-batch.js';
import { WorkerPool, WorkerPoolError } from '../../../src/workers/index.js';

describe('WorkerPool (real threads)', () => {
  const pool = new WorkerPool({ threads: 1 });
  afterAll(async () => {
    await pool.close();
  });

  it('runs a task in a worker thread, moving transferred buffers there', async () => {
    const batch = packedEd25519Batch(3);
    const answers = await pool.run<Uint8Array>('ed25519.verifyBatch', batch, { priority: 'consensus' });
    expect([...answers]).toEqual([1, 1, 1]);
    const moved = { ...batch, digests: Uint8Array.from(batch.digests) };
    expect([
      ...(await pool.run<Uint8Array>('ed25519.verifyBatch', moved, {
        priority: 'consensus',
        transferList: [moved.digests.buffer as ArrayBuffer],
      })),
    ]).toEqual([1, 1, 1]);
    expect(moved.digests.byteLength).toBe(0);
  });

  it('rejects the task of a thread that dies with WorkerPoolError, then runs the next one', async () => {
    const threads = Reflect.get(Reflect.get(pool, 'piscina') as object, 'threads') as Worker[];
    expect(threads).toHaveLength(1);
    // About a second of work: the thread is busy with it when it is terminated.
    const running = pool.run('ed25519.verifyBatch', packedEd25519Batch(20_000), { priority: 'consensus' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await threads[0]!.terminate();
    const error = await running.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(WorkerPoolError);
    expect((error as Error).message).toMatch(/worker thread running task "ed25519.verifyBatch" ended before answering/);
    expect([...(await pool.run<Uint8Array>('ed25519.verifyBatch', packedEd25519Batch(2), { priority: 'consensus' }))]).toEqual([1, 1]);
  });
});
