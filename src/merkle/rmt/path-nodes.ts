import { InvalidParamsError } from '../../errors.js';
import { bytesEqual } from '../bytes.js';
import { branchHash } from '../hash.js';
import { ROOT_INDEX, assertTreeSize, compareNodeIndexes, insertNodeIndex, isLeftIndex, pairedNode, treeShape } from './tree-shape.js';

/**
 * Every node hash computable from known nodes plus a proof's sibling hashes, keyed by LIP 0031
 * node index (LIP 0031 Appendix A `calculatePathNodes`; shared by proof verification and by leaf
 * updates, Appendix E). Nodes are processed deepest layer first, left to right; a node without a
 * partner goes up unchanged, a partner is taken from the known nodes if present, else the next
 * sibling hash is consumed. Index 0 marks a query that is not in the tree and is skipped.
 *
 * Throws InvalidParamsError when the inputs cannot describe a tree path (mismatched lengths,
 * too few sibling hashes, a query that contradicts a computed node, an impossible index).
 */
export function calculatePathNodes(
  queryHashes: readonly Uint8Array[],
  size: number,
  idxs: readonly number[],
  siblingHashes: readonly Uint8Array[],
): Map<number, Uint8Array> {
  if (queryHashes.length === 0 || idxs.length === 0) {
    throw new InvalidParamsError('Query hashes and indexes must have at least one element.');
  }
  if (queryHashes.length !== idxs.length) {
    throw new InvalidParamsError('Query hashes and indexes must have the same length.');
  }
  assertTreeSize(size);
  if (size === 0) throw new InvalidParamsError('A proof for an empty tree has no path.');

  const known = new Map<number, Uint8Array>();
  // Nodes that went up unchanged, under the index of the parent position they now stand for.
  const carried = new Map<number, Uint8Array>();
  const pending: number[] = [];
  for (let i = 0; i < idxs.length; i += 1) {
    const index = idxs[i] as number;
    if (index === 0) continue;
    if (!Number.isInteger(index) || index < 0) throw new InvalidParamsError(`Invalid node index ${index}.`);
    pending.push(index);
    known.set(index, queryHashes[i] as Uint8Array);
  }
  pending.sort(compareNodeIndexes);

  const shape = treeShape(size);
  let nextSibling = 0;
  while (pending.length > 0) {
    const index = pending[0] as number;
    if (index === ROOT_INDEX) return known;
    if (index < ROOT_INDEX) throw new InvalidParamsError(`Node index ${index} lies above the root.`);
    const hash = known.get(index) ?? carried.get(index);
    if (hash === undefined) throw new InvalidParamsError(`No hash known for node index ${index}.`);
    const parent = index >>> 1;
    const partner = pairedNode(shape, index);
    if (partner === undefined) {
      carried.set(parent, hash);
    } else {
      let partnerHash = known.get(partner.index);
      if (partnerHash === undefined) {
        partnerHash = siblingHashes[nextSibling];
        nextSibling += 1;
        if (partnerHash === undefined) throw new InvalidParamsError('The proof has too few sibling hashes.');
      }
      const parentHash = isLeftIndex(index) ? branchHash(hash, partnerHash) : branchHash(partnerHash, hash);
      const existing = known.get(parent);
      if (existing !== undefined && !bytesEqual(existing, parentHash)) {
        throw new InvalidParamsError('A query hash contradicts the parent computed from its children.');
      }
      known.set(parent, parentHash);
    }
    pending.shift();
    insertNodeIndex(pending, parent);
  }
  return known;
}
