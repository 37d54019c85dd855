/**
 * BLS checks in bulk on a worker thread (bls-batch.ts: one multi-pairing, bisection when it
 * fails). Each thread keeps its own cache of decoded public keys (bls-public-key-cache.ts is one
 * per thread), so after the first certificate of a validator set its 101 keys cost nothing to
 * decode again (101 keys take about 7.6 ms to decode uncached).
 */
import { verifyBlsChecks, type BlsCheck } from '../../crypto/bls-batch.js';
import type { WorkerTask } from '../worker-task.js';
import { packBytes, unpackBytes, type PackedBytes } from './packed-bytes.js';
import { InvariantError } from '../../errors.js';

export interface PackedBlsBatch {
  /** Per check: 1 for fastAggregateVerify, 0 for verify. */
  readonly aggregate: Uint8Array;
  /** Per check: how many consecutive keys of `publicKeys` it uses. */
  readonly keyCounts: Uint32Array;
  readonly publicKeys: PackedBytes;
  readonly messages: PackedBytes;
  readonly signatures: PackedBytes;
}

export function packBlsChecks(checks: readonly BlsCheck[]): PackedBlsBatch {
  return {
    aggregate: Uint8Array.from(checks, (check) => (check.kind === 'fastAggregateVerify' ? 1 : 0)),
    keyCounts: Uint32Array.from(checks, (check) => check.publicKeys.length),
    publicKeys: packBytes(checks.flatMap((check) => check.publicKeys)),
    messages: packBytes(checks.map((check) => check.message)),
    signatures: packBytes(checks.map((check) => check.signature)),
  };
}

export function unpackBlsChecks(batch: PackedBlsBatch): BlsCheck[] {
  const keys = unpackBytes(batch.publicKeys);
  const messages = unpackBytes(batch.messages);
  const signatures = unpackBytes(batch.signatures);
  const count = batch.aggregate.length;
  if (batch.keyCounts.length !== count || messages.length !== count || signatures.length !== count) {
    throw new InvariantError(`A packed BLS batch of ${count} checks has fields of different lengths.`);
  }
  const checks: BlsCheck[] = [];
  let nextKey = 0;
  for (let i = 0; i < count; i += 1) {
    const keyCount = batch.keyCounts[i] as number;
    if (nextKey + keyCount > keys.length) throw new InvariantError('A packed BLS batch names more keys than it holds.');
    checks.push({
      kind: batch.aggregate[i] === 1 ? 'fastAggregateVerify' : 'verify',
      publicKeys: keys.slice(nextKey, nextKey + keyCount),
      message: messages[i] as Uint8Array,
      signature: signatures[i] as Uint8Array,
    });
    nextKey += keyCount;
  }
  return checks;
}

/** Answers as bytes: 1 holds, 0 does not. */
export const blsVerifyBatchTask: WorkerTask<PackedBlsBatch, Uint8Array> = {
  name: 'bls.verifyBatch',
  run: (batch) => Uint8Array.from(verifyBlsChecks(unpackBlsChecks(batch)), (ok) => (ok ? 1 : 0)),
};
