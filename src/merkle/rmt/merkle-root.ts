import { EMPTY_HASH, branchHash, leafHash } from '../hash.js';

/**
 * Merkle root of a data array (LIP 0031 "Merkle Root"): EMPTY_HASH for no
 * leaves, the leaf hash `H(0x00 ‖ d)` for one, otherwise the branch hash of the roots of the
 * first k leaves and of the rest, k being the largest power of two strictly below the count.
 * Leaves are raw data (e.g. transaction IDs or encoded assets), never pre-hashed.
 */
export function merkleRoot(leaves: readonly Uint8Array[]): Buffer {
  if (leaves.length === 0) return EMPTY_HASH;
  return rangeRoot(leaves, 0, leaves.length);
}

/** Root of leaves[start, end); works on index ranges so no sub-array is ever copied. */
function rangeRoot(leaves: readonly Uint8Array[], start: number, end: number): Buffer {
  const count = end - start;
  if (count === 1) return leafHash(leaves[start] as Uint8Array);
  const split = start + largestPowerOfTwoBelow(count);
  return branchHash(rangeRoot(leaves, start, split), rangeRoot(leaves, split, end));
}

/** Largest power of two strictly smaller than `n` (n ≥ 2). */
function largestPowerOfTwoBelow(n: number): number {
  return 2 ** (31 - Math.clz32(n - 1));
}
