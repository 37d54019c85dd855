import { InvalidParamsError } from '../../errors.js';
import { leafHash } from '../hash.js';
import { calculatePathNodes } from './path-nodes.js';
import { ROOT_INDEX } from './tree-shape.js';
import type { MerkleUpdateProof } from './types.js';

/**
 * Root after replacing the leaves at `proof.indexes` (LIP 0031 node indexes) with `updateData`,
 * given an inclusion proof for those leaves (LIP 0031 Appendix E `calculateRootFromUpdateData`).
 * The caller is expected to have checked the proof against the old data first.
 * Throws InvalidParamsError for an empty proof, mismatched lengths or unusable sibling hashes.
 */
export function calculateRootFromUpdateData(updateData: readonly Uint8Array[], proof: MerkleUpdateProof): Buffer {
  const { size, indexes, siblingHashes } = proof;
  if (size === 0 || indexes.length === 0) throw new InvalidParamsError('Invalid proof: it proves no leaf.');
  if (updateData.length !== indexes.length) {
    throw new InvalidParamsError('The number of update values must equal the number of proof indexes.');
  }
  const updateHashes = updateData.map((data) => leafHash(data));
  const root = calculatePathNodes(updateHashes, size, indexes, siblingHashes).get(ROOT_INDEX);
  if (root === undefined) throw new InvalidParamsError('Invalid proof: the root could not be computed.');
  return Buffer.isBuffer(root) ? root : Buffer.from(root);
}
