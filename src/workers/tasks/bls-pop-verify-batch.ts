/**
 * Proofs of possession checked on a worker thread (crypto/pop-verifier.ts): each pair is one
 * `popVerify` call (tens of milliseconds in the bigint implementation), so a batch is a few pairs
 * per thread and the per-task cost of the pool is negligible against it.
 */
import { popVerify } from '../../crypto/bls-pop.js';
import type { PopCheck } from '../../crypto/pop-verifier.js';
import { InvariantError } from '../../errors.js';
import type { WorkerTask } from '../worker-task.js';
import { packBytes, unpackBytes, type PackedBytes } from './packed-bytes.js';

export interface PackedPopBatch {
  readonly publicKeys: PackedBytes;
  readonly proofs: PackedBytes;
}

/** Packs the pairs as given: a key or proof of the wrong length travels as is and answers false there. */
export function packPopChecks(checks: readonly PopCheck[]): PackedPopBatch {
  return {
    publicKeys: packBytes(checks.map((check) => check.publicKey)),
    proofs: packBytes(checks.map((check) => check.proof)),
  };
}

/** Answers as bytes, in the order of the pairs: 1 verifies, 0 does not. */
export const blsPopVerifyBatchTask: WorkerTask<PackedPopBatch, Uint8Array> = {
  name: 'bls.popVerifyBatch',
  run: (batch) => {
    const publicKeys = unpackBytes(batch.publicKeys);
    const proofs = unpackBytes(batch.proofs);
    if (publicKeys.length !== proofs.length) {
      throw new InvariantError(`A packed proof-of-possession batch has ${publicKeys.length} keys and ${proofs.length} proofs.`);
    }
    return Uint8Array.from(publicKeys, (publicKey, i) => (popVerify(publicKey, proofs[i] as Uint8Array) ? 1 : 0));
  },
};
