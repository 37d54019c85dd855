/**
 * Typed errors across the worker boundary: a task that throws in a real worker thread rejects on
 * the main thread with the same class, code and message (and the worker's stack); the envelope
 * itself survives a structured clone with the fields of the classes that have them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  BasaltError,
  ConsensusError,
  InvalidBlockError,
  InvariantError,
  NotFoundError,
  StoreError,
  ValidationError,
} from '../../../src/errors.js';
import { TransactionPoolError } from '../../../src/engine/txpool/errors.js';
import { jsonRpcCodeOf, INTERNAL_ERROR, INVALID_PARAMS, RESOURCE_NOT_FOUND } from '../../../src/rpc/error-codes.js';
import { packBytes } from '../../../src/workers/tasks/packed-bytes.js';
import {
  fromWorkerErrorEnvelope,
  isWorkerErrorEnvelope,
  toWorkerErrorEnvelope,
  type WorkerErrorEnvelope,
} from '../../../src/workers/worker-error.js';
import { WorkerPool, WorkerPoolError, WorkerTaskError } from '../../../src/workers/index.js';

/** What the pool rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('the task was expected to fail');
    },
    (reason: unknown) => reason,
  );
}

/** An envelope as the main thread receives it: made in the "worker", then cloned by the port. */
function acrossThreads(error: unknown): Error {
  const envelope = toWorkerErrorEnvelope(error);
  if (envelope === undefined) throw new Error('not an Error');
  const received: unknown = structuredClone(envelope);
  expect(isWorkerErrorEnvelope(received)).toBe(true);
  return fromWorkerErrorEnvelope(received as WorkerErrorEnvelope);
}

describe('task errors thrown in a real worker thread', () => {
  const pool = new WorkerPool({ threads: 1 });
  afterAll(async () => {
    await pool.close();
  });

  it('rejects with the same BasaltError class, code and message as the task threw', async () => {
    // Three checks announced, one check's worth of bytes: the task refuses the batch.
    const batch = { count: 3, digests: new Uint8Array(32), signatures: new Uint8Array(64), publicKeys: new Uint8Array(32) };
    const error = await rejection(pool.run('ed25519.verifyBatch', batch, { priority: 'consensus' }));
    expect(error).toBeInstanceOf(InvariantError);
    expect(error).toBeInstanceOf(BasaltError);
    expect(error).not.toBeInstanceOf(WorkerPoolError);
    const typed = error as InvariantError;
    expect(typed.code).toBe('ERR_INVARIANT');
    expect(typed.name).toBe('InvariantError');
    expect(typed.message).toBe('A packed Ed25519 batch of 3 checks has fields of the wrong length.');
    // The stack is the worker's: it names the task's own file.
    expect(typed.stack).toContain('ed25519-verify-batch');
    // The RPC layer sees what a main-thread InvariantError would give: an internal error.
    expect(jsonRpcCodeOf(error)).toBe(INTERNAL_ERROR);
  });

  it('rejects a task name the worker does not know with its InvariantError', async () => {
    const error = await rejection(pool.run('no.such.task', {}, { priority: 'consensus' }));
    expect(error).toBeInstanceOf(InvariantError);
    expect((error as InvariantError).message).toBe('Unknown worker task "no.such.task".');
  });

  it('keeps a built-in error class and message, as a cloned Error did', async () => {
    // An end offset past the packed bytes: unpackBytes throws a RangeError.
    const keys = { bytes: new Uint8Array(4), ends: Uint32Array.from([8]) };
    const error = await rejection(
      pool.run(
        'bls.verifyBatch',
        {
          aggregate: new Uint8Array(1),
          keyCounts: Uint32Array.from([1]),
          publicKeys: keys,
          messages: packBytes([new Uint8Array(1)]),
          signatures: packBytes([new Uint8Array(1)]),
        },
        { priority: 'consensus' },
      ),
    );
    expect(error).toBeInstanceOf(RangeError);
    expect(error).not.toBeInstanceOf(BasaltError);
    expect((error as Error).message).toBe('Packed bytes: offsets out of order or out of range.');
  });

  it('still runs tasks after a failed one', async () => {
    const answers = await pool.run<Uint8Array>(
      'ed25519.verifyBatch',
      {
        count: 0,
        digests: new Uint8Array(0),
        signatures: new Uint8Array(0),
        publicKeys: new Uint8Array(0),
      },
      { priority: 'consensus' },
    );
    expect([...answers]).toEqual([]);
  });
});

describe('worker error envelopes', () => {
  it('rebuild every shared class by its code, with the fields that class carries', () => {
    const validation = acrossThreads(new ValidationError(['.a: must be integer', '.b: is required']));
    expect(validation).toBeInstanceOf(ValidationError);
    expect((validation as ValidationError).errors).toEqual(['.a: must be integer', '.b: is required']);
    expect(validation.message).toBe('.a: must be integer; .b: is required');
    expect(jsonRpcCodeOf(validation)).toBe(INVALID_PARAMS);

    const block = acrossThreads(new InvalidBlockError('state-root', 'Invalid state root.', 42));
    expect(block).toBeInstanceOf(InvalidBlockError);
    expect((block as InvalidBlockError).reason).toBe('state-root');
    expect((block as InvalidBlockError).height).toBe(42);

    const notFound = acrossThreads(new NotFoundError('Block 7 does not exist.'));
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(jsonRpcCodeOf(notFound)).toBe(RESOURCE_NOT_FOUND);

    for (const error of [new ConsensusError('c'), new StoreError('s'), new InvariantError('i')]) {
      const received = acrossThreads(error);
      expect(received.constructor).toBe(error.constructor);
      expect((received as BasaltError).code).toBe(error.code);
      expect(received.message).toBe(error.message);
    }
  });

  it('give an unregistered BasaltError back as WorkerTaskError with its code, name and fields', () => {
    const original = new TransactionPoolError('pool-full', 'The pool is full.', Buffer.alloc(32, 1));
    const received = acrossThreads(original);
    expect(received).toBeInstanceOf(WorkerTaskError);
    const typed = received as WorkerTaskError & { reason?: unknown; transactionID?: unknown };
    expect(typed.code).toBe('ERR_TXPOOL_REJECTED');
    expect(typed.remoteName).toBe('TransactionPoolError');
    expect(typed.message).toBe('The pool is full.');
    expect(typed.reason).toBe('pool-full');
    expect(Buffer.from(typed.transactionID as Uint8Array)).toEqual(Buffer.alloc(32, 1));
    expect(jsonRpcCodeOf(received)).toBe(INTERNAL_ERROR);
  });

  it('keep the code of a plain error and drop fields a thread cannot clone', () => {
    const system = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', callback: () => undefined });
    const received = acrossThreads(system);
    expect(received).not.toBeInstanceOf(BasaltError);
    expect(received.message).toBe('ENOENT: no such file');
    expect((received as Error & { code?: string }).code).toBe('ENOENT');
    expect((received as Error & { callback?: unknown }).callback).toBeUndefined();
  });

  it('leave a thrown value that is not an Error as it is', () => {
    expect(toWorkerErrorEnvelope('just a string')).toBeUndefined();
    expect(isWorkerErrorEnvelope(new Error('x'))).toBe(false);
  });
});
