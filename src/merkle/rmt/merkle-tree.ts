import { InvalidParamsError } from '../../errors.js';
import { latin1Key } from '../bytes.js';
import { EMPTY_HASH, leafHash } from '../hash.js';
import { appendLeafHash } from './append-path.js';
import { buildLayers, nodeHashAt } from './layers.js';
import { calculatePathNodes } from './path-nodes.js';
import { proofFromLayers } from './proof.js';
import { collectSiblingHashes } from './sibling-hashes.js';
import { ROOT_INDEX, assertTreeSize, bitLength, pairedLocation, toNodeIndex, toNodeLocation, treeHeight, treeShape } from './tree-shape.js';
import type { MerkleProof } from './types.js';

/**
 * Regular Merkle tree (LIP 0031) held in memory. Appending costs O(log n) hashes through the
 * append path (Appendix B), so the root is always current. The full node layers, needed only
 * for proofs, right witnesses and leaf updates, are built on first use after an append (O(n)
 * hashes) and kept until the next append.
 */
export class MerkleTree {
  private leafHashes: Buffer[] = [];
  private path: Buffer[] = [];
  private currentRoot: Buffer = EMPTY_HASH;
  private layerCache: Buffer[][] | undefined;
  private indexByHash: Map<string, number> | undefined;

  /** A tree over the raw data blocks `leaves` (LIP 0031 "Merkle Root"). */
  static fromLeaves(leaves: readonly Uint8Array[]): MerkleTree {
    assertTreeSize(leaves.length);
    const tree = new MerkleTree();
    tree.leafHashes = leaves.map((leaf) => leafHash(leaf));
    tree.adoptLayers(buildLayers(tree.leafHashes));
    return tree;
  }

  /** Current Merkle root; EMPTY_HASH for an empty tree. */
  get root(): Buffer {
    return this.currentRoot;
  }

  /** Number of leaves. */
  get size(): number {
    return this.leafHashes.length;
  }

  /** Roots of the perfect subtrees the leaves split into, bottom-up (LIP 0031 Appendix B). */
  get appendPath(): Buffer[] {
    return this.path.slice();
  }

  /** Appends a raw data block and returns the new root (LIP 0031 Appendix B, O(log n)). */
  append(value: Uint8Array): Buffer {
    assertTreeSize(this.leafHashes.length + 1);
    const hash = leafHash(value);
    const next = appendLeafHash(hash, this.path, this.leafHashes.length);
    this.leafHashes.push(hash);
    this.path = next.appendPath as Buffer[];
    this.currentRoot = next.root;
    this.layerCache = undefined;
    this.indexByHash = undefined;
    return this.currentRoot;
  }

  /**
   * Inclusion proof for node hashes (leaf or branch), as lisk-tree's `generateProof`: a hash not
   * in the tree gets index 0 and is left out of the sibling hashes.
   */
  generateProof(queryHashes: readonly Uint8Array[]): MerkleProof {
    if (this.size === 0) return { size: 0, idxs: [], siblingHashes: [] };
    const lookup = this.hashIndex();
    const idxs = queryHashes.map((hash) => lookup.get(latin1Key(hash)) ?? 0);
    return { size: this.size, idxs, siblingHashes: collectSiblingHashes(idxs, this.layers()) };
  }

  /** Inclusion proof for the leaves at the given 0-based positions. */
  generateLeafProof(positions: readonly number[]): MerkleProof {
    if (this.size === 0) return { size: 0, idxs: [], siblingHashes: [] };
    return proofFromLayers(this.layers(), positions);
  }

  /** Sibling hashes proving the nodes at LIP 0031 node indexes `idxs` (LIP 0031 Appendix A). */
  getSiblingHashes(idxs: readonly number[]): Buffer[] {
    return collectSiblingHashes(idxs, this.layers());
  }

  /**
   * Replaces the leaves at LIP 0031 leaf indexes `idxs` with the raw data `updateData` and
   * returns the new root (LIP 0031 Appendix E). Unlike lisk-tree, whose `update` returns the new
   * root but leaves its own root unchanged, this tree's root, layers and append path follow.
   */
  update(idxs: readonly number[], updateData: readonly Uint8Array[]): Buffer {
    const height = treeHeight(this.size);
    if (this.size === 0 || idxs.length === 0) throw new InvalidParamsError('Nothing to update.');
    for (const index of idxs) {
      if (bitLength(index) !== height + 1) throw new InvalidParamsError(`Node index ${index} is not a leaf.`);
    }
    const layers = this.layers();
    const siblingHashes = collectSiblingHashes(idxs, layers);
    const computed = calculatePathNodes(
      updateData.map((data) => leafHash(data)),
      this.size,
      idxs,
      siblingHashes,
    );
    for (const [index, hash] of computed) {
      const { layer, position } = toNodeLocation(index, height);
      const row = layers[layer];
      if (row !== undefined && position < row.length) row[position] = Buffer.isBuffer(hash) ? hash : Buffer.from(hash);
    }
    this.leafHashes = layers[0] as Buffer[];
    this.adoptLayers(layers);
    const root = computed.get(ROOT_INDEX);
    if (root === undefined || !this.currentRoot.equals(root)) {
      throw new InvalidParamsError('Leaf update did not reach the root.');
    }
    return this.currentRoot;
  }

  /**
   * Right witness for the split after the first `idx` leaves (LIP 0031 Appendix D, with
   * lisk-tree's loop): hashes to join on the right of the append path at `idx` to get the root.
   */
  generateRightWitness(idx: number): Buffer[] {
    const size = this.size;
    if (!Number.isInteger(idx) || idx < 0 || idx > size) throw new InvalidParamsError('Index out of range.');
    if (idx === size) return [];
    if (idx === 0) return this.appendPath;
    const layers = this.layers();
    const shape = treeShape(size);
    const witness: Buffer[] = [];
    let completedIdx = idx;
    for (let layer = 0; layer < shape.height; layer += 1) {
      if (((completedIdx >>> layer) & 1) === 0) continue;
      const position = (idx - 1) >> layer;
      const partner = pairedLocation(shape, position, layer);
      if (partner === undefined) break;
      witness.push(nodeHashAt(layers, partner));
      completedIdx += 1 << layer;
    }
    return witness;
  }

  /** LIP 0031 node index of a node hash, or 0 if it is not in the tree. */
  indexOf(hash: Uint8Array): number {
    return this.hashIndex().get(latin1Key(hash)) ?? 0;
  }

  private layers(): Buffer[][] {
    this.layerCache ??= buildLayers(this.leafHashes);
    return this.layerCache;
  }

  /** Takes `layers` as the tree's nodes and derives the root and append path from them. */
  private adoptLayers(layers: Buffer[][]): void {
    this.layerCache = layers;
    this.indexByHash = undefined;
    const size = this.leafHashes.length;
    this.currentRoot = size === 0 ? EMPTY_HASH : (layers[layers.length - 1]?.[0] as Buffer);
    // The perfect subtree of set bit b covers 2^b leaves and ends where the bits above b end:
    // it is node (size >> b) − 1 of layer b.
    const path: Buffer[] = [];
    for (let bit = 0; bit < bitLength(size); bit += 1) {
      if (((size >> bit) & 1) === 1) path.push(layers[bit]?.[(size >> bit) - 1] as Buffer);
    }
    this.path = path;
  }

  private hashIndex(): Map<string, number> {
    if (this.indexByHash !== undefined) return this.indexByHash;
    const layers = this.layers();
    const height = treeHeight(this.size);
    const lookup = new Map<string, number>();
    for (const [layer, row] of layers.entries()) {
      for (const [position, hash] of row.entries()) lookup.set(latin1Key(hash), toNodeIndex(position, layer, height));
    }
    this.indexByHash = lookup;
    return lookup;
  }
}
