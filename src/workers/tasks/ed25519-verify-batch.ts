/**
 * Ed25519 checks in bulk, on a worker thread, with libsodium as on the main thread (the same
 * verifyDigest: strict canonical-S and small-order checks, which Lisk's consensus relies on).
 * The batch travels as three packed byte arrays, not as an array of objects, so that cloning it
 * into the worker is a few memcpys.
 */
import { verifyDigest } from '../../crypto/ed25519.js';
import type { WorkerTask } from '../worker-task.js';
import { InvariantError } from '../../errors.js';

/** Fixed widths of a packed check; shorter or longer fields were refused before packing. */
export const PACKED_DIGEST_LENGTH = 32;
export const PACKED_SIGNATURE_LENGTH = 64;
export const PACKED_PUBLIC_KEY_LENGTH = 32;

export interface PackedEd25519Batch {
  readonly count: number;
  readonly digests: Uint8Array;
  readonly signatures: Uint8Array;
  readonly publicKeys: Uint8Array;
}

/** Answers as bytes: 1 verifies, 0 does not. */
export function verifyPackedBatch(batch: PackedEd25519Batch): Uint8Array {
  const { count, digests, signatures, publicKeys } = batch;
  if (
    digests.length !== count * PACKED_DIGEST_LENGTH ||
    signatures.length !== count * PACKED_SIGNATURE_LENGTH ||
    publicKeys.length !== count * PACKED_PUBLIC_KEY_LENGTH
  ) {
    throw new InvariantError(`A packed Ed25519 batch of ${count} checks has fields of the wrong length.`);
  }
  const answers = new Uint8Array(count);
  for (let i = 0; i < count; i += 1) {
    const ok = verifyDigest(
      digests.subarray(i * PACKED_DIGEST_LENGTH, (i + 1) * PACKED_DIGEST_LENGTH),
      signatures.subarray(i * PACKED_SIGNATURE_LENGTH, (i + 1) * PACKED_SIGNATURE_LENGTH),
      publicKeys.subarray(i * PACKED_PUBLIC_KEY_LENGTH, (i + 1) * PACKED_PUBLIC_KEY_LENGTH),
    );
    answers[i] = ok ? 1 : 0;
  }
  return answers;
}

export const ed25519VerifyBatchTask: WorkerTask<PackedEd25519Batch, Uint8Array> = {
  name: 'ed25519.verifyBatch',
  run: verifyPackedBatch,
};
