import { EMPTY_HASH, smtBranchHash, smtLeafHash } from '../hash.js';
import { commonPrefixBits, keyBit } from './key-bits.js';
import { sortBatch } from './sort-entries.js';

/**
 * Root of a sparse Merkle tree (LIP 0039) built from nothing by one batch update with these
 * entries, computed without a node store: for trees that are made, hashed and thrown away, like a
 * block's event tree (LIP 0065). The same root as `SparseMerkleTree.update(EMPTY_HASH, …)`: a
 * repeated key keeps its last value and an empty value leaves its key out. Keys must all have
 * the same length (the caller checks); native/src/fresh_smt.rs is the addon's version.
 *
 * The sorted leaves are hashed from the bottom of each key range up: a range holding one leaf is
 * that leaf's hash (LIP 0039 puts a lone leaf at the highest node whose subtree has no other
 * leaf), and a range of several leaves that share bits `depth..d` splits at bit d below a chain
 * of branches whose other child is empty, one per shared bit. That is one hash per leaf, one per
 * split and one per shared bit, and nothing is encoded or stored.
 */
export function freshSmtRoot(keys: readonly Uint8Array[], values: readonly Uint8Array[]): Buffer {
  const sorted = sortBatch(keys, values);
  const kept: Uint8Array[] = [];
  const leaves: Buffer[] = [];
  for (let i = 0; i < sorted.keys.length; i += 1) {
    const value = sorted.values[i] as Uint8Array;
    if (value.length === 0) continue;
    const key = sorted.keys[i] as Uint8Array;
    kept.push(key);
    leaves.push(smtLeafHash(key, value));
  }
  return kept.length === 0 ? EMPTY_HASH : subtreeHash(kept, leaves, 0, kept.length, 0);
}

/** Hash of the node at `depth` whose subtree holds exactly the sorted, distinct keys [start, end). */
function subtreeHash(keys: readonly Uint8Array[], leaves: readonly Buffer[], start: number, end: number, depth: number): Buffer {
  if (end - start === 1) return leaves[start] as Buffer;
  const first = keys[start] as Uint8Array;
  // Sorted distinct keys: the first and the last share exactly the bits all of them share.
  const splitDepth = commonPrefixBits(first, keys[end - 1] as Uint8Array);
  // The first key with a 1 at the split depth (the 0s sort first).
  let low = start + 1;
  let high = end - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (keyBit(keys[middle] as Uint8Array, splitDepth) === 1) high = middle;
    else low = middle + 1;
  }
  let hash = smtBranchHash(subtreeHash(keys, leaves, start, low, splitDepth + 1), subtreeHash(keys, leaves, low, end, splitDepth + 1));
  for (let level = splitDepth - 1; level >= depth; level -= 1) {
    hash = keyBit(first, level) === 1 ? smtBranchHash(EMPTY_HASH, hash) : smtBranchHash(hash, EMPTY_HASH);
  }
  return hash;
}
