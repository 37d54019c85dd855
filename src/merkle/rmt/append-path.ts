import { InvalidParamsError } from '../../errors.js';
import { branchHash, leafHash } from '../hash.js';
import { bitLength } from './tree-shape.js';
import type { AppendState } from './types.js';

/**
 * Appends one raw data block to a tree known only by its append path and size (LIP 0031
 * Appendix B; lisk-tree `calculateMerkleRoot`, used for interoperability inbox/outbox roots).
 * Costs one hash per set bit of `size` plus one per trailing one bit: O(log n).
 *
 * The append path holds, bottom-up, the root of each perfect subtree the leaves split into: one
 * per set bit of `size`. The new leaf is hashed as the right partner of each of them in turn.
 */
export function appendToMerkleRoot(value: Uint8Array, appendPath: readonly Buffer[], size: number): AppendState {
  return appendLeafHash(leafHash(value), appendPath, size);
}

/** appendToMerkleRoot for a leaf whose hash is already known. */
export function appendLeafHash(newLeafHash: Buffer, appendPath: readonly Buffer[], size: number): AppendState {
  if (!Number.isInteger(size) || size < 0 || size >= 2 ** 31) {
    throw new InvalidParamsError(`Append path size must be an integer in [0, 2^31), got ${size}.`);
  }
  let root = newLeafHash;
  let used = 0;
  for (let bit = 0; bit < bitLength(size); bit += 1) {
    if (((size >> bit) & 1) === 1) {
      const left = appendPath[used];
      if (left === undefined) throw new InvalidParamsError(`The append path is too short for size ${size}.`);
      root = branchHash(left, root);
      used += 1;
    }
  }

  // The subtrees of the trailing one bits merge with the new leaf into one perfect subtree;
  // the larger subtrees above them are unchanged.
  const merged = trailingOnes(size);
  let subtree = newLeafHash;
  for (let i = 0; i < merged; i += 1) subtree = branchHash(appendPath[i] as Buffer, subtree);
  return { root, appendPath: [subtree, ...appendPath.slice(merged)], size: size + 1 };
}

function trailingOnes(value: number): number {
  let count = 0;
  while (((value >> count) & 1) === 1) count += 1;
  return count;
}
