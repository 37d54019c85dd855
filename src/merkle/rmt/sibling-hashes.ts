import { nodeHashAt } from './layers.js';
import { compareNodeIndexes, insertNodeIndex, isLeftIndex, pairedNode, treeShape } from './tree-shape.js';

/**
 * Sibling hashes proving the nodes at `idxs` (LIP 0031 Appendix A `getSiblingHashes`, with the
 * exact ordering of lisk-tree): nodes are processed deepest layer first, left to right; two
 * queried siblings merge without a hash, an unpaired node goes up unchanged, and a partner that is
 * itself one of the queried nodes contributes no hash. Index 0 (not in tree) is ignored.
 *
 * `layers` are the tree's node hashes as built by buildLayers (layers[layer][position]).
 */
export function collectSiblingHashes(idxs: readonly number[], layers: readonly (readonly Buffer[])[]): Buffer[] {
  const size = layers[0]?.length ?? 0;
  const siblings: Buffer[] = [];
  if (size === 0) return siblings;
  const shape = treeShape(size);
  const queried = new Set(idxs);
  const pending = idxs.filter((index) => index !== 0).sort(compareNodeIndexes);

  while (pending.length > 0) {
    const index = pending[0] as number;
    const next = pending[1];
    if (
      isLeftIndex(index) &&
      next !== undefined &&
      (index ^ next) === 1 // same layer and adjacent: both hashes are known to the verifier
    ) {
      pending.splice(0, 2);
      insertNodeIndex(pending, index >>> 1);
      continue;
    }
    if (index === 1) return siblings; // above the root: every path is complete
    const partner = pairedNode(shape, index);
    if (partner !== undefined && !queried.has(partner.index)) siblings.push(nodeHashAt(layers, partner));
    removeAll(pending, index);
    insertNodeIndex(pending, index >>> 1);
  }
  return siblings;
}

/** Removes every occurrence of `value` from the front-sorted list in place. */
function removeAll(list: number[], value: number): void {
  let write = 0;
  for (let read = 0; read < list.length; read += 1) {
    const item = list[read] as number;
    if (item !== value) list[write++] = item;
  }
  list.length = write;
}
