import { InvalidParamsError } from '../../errors.js';
import { bytesEqual } from '../bytes.js';
import { leafHash } from '../hash.js';
import { buildLayers } from './layers.js';
import { calculatePathNodes } from './path-nodes.js';
import { collectSiblingHashes } from './sibling-hashes.js';
import { ROOT_INDEX, assertTreeSize, toNodeIndex, treeHeight } from './tree-shape.js';
import type { MerkleProof } from './types.js';

/**
 * Inclusion proof for the leaves at `queryIndexes` (0-based positions in `leaves`) of the tree
 * built from the raw data `leaves` (LIP 0031 "Proof Construction"). `idxs` follow the query
 * order; an empty tree gives `{size: 0, idxs: [], siblingHashes: []}` as lisk-tree does.
 */
export function generateProof(leaves: readonly Uint8Array[], queryIndexes: readonly number[]): MerkleProof {
  assertTreeSize(leaves.length);
  if (leaves.length === 0) return { size: 0, idxs: [], siblingHashes: [] };
  const layers = buildLayers(leaves.map((leaf) => leafHash(leaf)));
  return proofFromLayers(layers, queryIndexes);
}

/** Proof for leaf positions over an already built tree (shared with MerkleTree). */
export function proofFromLayers(layers: readonly (readonly Buffer[])[], queryIndexes: readonly number[]): MerkleProof {
  const size = layers[0]?.length ?? 0;
  const height = treeHeight(size);
  const idxs = queryIndexes.map((position) => {
    if (!Number.isInteger(position) || position < 0 || position >= size) {
      throw new InvalidParamsError(`Leaf position ${position} is outside a tree of ${size} leaves.`);
    }
    return toNodeIndex(position, 0, height);
  });
  return { size, idxs, siblingHashes: collectSiblingHashes(idxs, layers) };
}

/**
 * True when `queryHashes` (node hashes, in the order of `proof.idxs`) and the proof recompute
 * `root` (LIP 0031 "Verification"). Never throws: a malformed proof is simply false.
 */
export function verifyProof(queryHashes: readonly Uint8Array[], proof: MerkleProof, root: Uint8Array): boolean {
  if (proof.size === 0) return false;
  try {
    const computed = calculatePathNodes(queryHashes, proof.size, proof.idxs, proof.siblingHashes).get(ROOT_INDEX);
    return computed !== undefined && bytesEqual(computed, root);
  } catch {
    return false;
  }
}

/** verifyProof for raw data blocks, each hashed as a leaf first (LIP 0031 Appendix C). */
export function verifyDataBlock(queryData: readonly Uint8Array[], proof: MerkleProof, root: Uint8Array): boolean {
  return verifyProof(
    queryData.map((data) => leafHash(data)),
    proof,
    root,
  );
}
