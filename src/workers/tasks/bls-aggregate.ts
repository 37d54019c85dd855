/**
 * BLS signature aggregation on a worker thread (commit pool: the aggregate commit of ~70
 * certificate signatures, each a G2 point to decompress). A refusal travels back as data, so the
 * main thread raises the same CryptoError as bls.ts would there.
 */
import { aggregateSignatures } from '../../crypto/bls.js';
import { CryptoError } from '../../errors.js';
import type { WorkerTask } from '../worker-task.js';
import { unpackBytes, type PackedBytes } from './packed-bytes.js';

export type BlsAggregateOutput = { readonly signature: Uint8Array } | { readonly refused: string };

export const blsAggregateTask: WorkerTask<PackedBytes, BlsAggregateOutput> = {
  name: 'bls.aggregateSignatures',
  run(signatures) {
    try {
      // A copy of its own: a pooled Buffer would carry its whole 8 KiB slab across threads.
      return { signature: Uint8Array.from(aggregateSignatures(unpackBytes(signatures))) };
    } catch (error) {
      if (error instanceof CryptoError) return { refused: error.message };
      throw error;
    }
  },
};
