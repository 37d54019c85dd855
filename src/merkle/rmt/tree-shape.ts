/**
 * Shape arithmetic of the regular Merkle tree (LIP 0031 "Proof-of-Inclusion").
 *
 * A node is addressed either by its location (layer, position in layer; layer 0 = leaves) or by
 * its LIP 0031 node index: the bit string `binary(position)` padded to `height − layer` bits with
 * a `1` prepended, read as an integer. The root is index 2 (`"10"`), index 0 means "not in the
 * tree". Indexes are kept as JS numbers and handled with 32-bit operations, which covers every
 * tree of up to 2^30 leaves (a block holds a few thousand).
 */
import { InvalidParamsError } from '../../errors.js';

/** Largest number of leaves whose node indexes still fit the 32-bit arithmetic used here. */
export const MAX_TREE_SIZE = 2 ** 30;

/** Node index of the root. */
export const ROOT_INDEX = 2;

export interface NodeLocation {
  readonly layer: number;
  readonly position: number;
}

/** Number of significant bits of a non-negative 32-bit integer (0 for 0). */
export function bitLength(value: number): number {
  return 32 - Math.clz32(value);
}

/** Tree height `ceil(log2 size) + 1`: the number of layers of a tree with `size` ≥ 1 leaves. */
export function treeHeight(size: number): number {
  return size <= 1 ? 1 : bitLength(size - 1) + 1;
}

/** Throws unless `size` is a whole number of leaves the index arithmetic supports. */
export function assertTreeSize(size: number): void {
  if (!Number.isInteger(size) || size < 0 || size > MAX_TREE_SIZE) {
    throw new InvalidParamsError(`Merkle tree size must be an integer in [0, 2^30], got ${size}.`);
  }
}

/**
 * Number of nodes stored in each layer, bottom up. Each layer halves the one below; when that
 * count is odd the rounding alternates, down first: the first unpaired node waits (it is not
 * copied up), the next odd layer's last node pairs with it. Example: 13 → [13, 6, 3, 2, 1].
 */
export function layerSizes(size: number): number[] {
  const height = treeHeight(size);
  const sizes = new Array<number>(height);
  let count = size;
  let oddLayersSeen = 0;
  for (let layer = 0; layer < height; layer += 1) {
    sizes[layer] = count;
    const half = count / 2;
    const next = oddLayersSeen % 2 === 0 ? Math.floor(half) : Math.ceil(half);
    oddLayersSeen += count % 2;
    count = next;
  }
  return sizes;
}

/** A tree's leaf count with the height and layer sizes that every walk over its nodes needs. */
export interface TreeShape {
  readonly size: number;
  readonly height: number;
  readonly sizes: readonly number[];
}

export function treeShape(size: number): TreeShape {
  return { size, height: treeHeight(size), sizes: layerSizes(size) };
}

/** LIP 0031 node index of the node at `layer`/`position` in a tree of the given height. */
export function toNodeIndex(position: number, layer: number, height: number): number {
  const length = height - layer;
  if (length <= 0) throw new InvalidParamsError(`Layer ${layer} is not below a tree of height ${height}.`);
  return 2 ** length + position;
}

/** Location of the node with a non-zero LIP 0031 index in a tree of the given height. */
export function toNodeLocation(index: number, height: number): NodeLocation {
  const length = bitLength(index) - 1;
  const layer = height - length;
  if (length < 0 || layer < 0) throw new InvalidParamsError(`Invalid node index ${index} for tree height ${height}.`);
  return { layer, position: index - 2 ** length };
}

/**
 * Location of the node paired with `position`/`layer` when hashing upward, or undefined if the
 * node is unpaired at that layer and goes up unchanged. The partner of a left node that is the
 * last of its layer is the waiting unpaired node of a lower layer, so the search steps down
 * while the would-be partner position lies beyond its layer.
 */
export function pairedLocation(shape: TreeShape, position: number, layer: number): NodeLocation | undefined {
  let partner = position ^ 1;
  let partnerLayer = layer;
  while (partnerLayer > 0) {
    const layerSize = shape.sizes[partnerLayer];
    // A layer above the tree (an invalid query index) has no size: stop there, as lisk-tree does.
    if (layerSize === undefined || partner < layerSize) break;
    partner *= 2;
    partnerLayer -= 1;
  }
  if (partner >= shape.size) return undefined;
  return { layer: partnerLayer, position: partner };
}

/** The node paired with the node at LIP 0031 `index` (see pairedLocation), with its own index. */
export function pairedNode(shape: TreeShape, index: number): (NodeLocation & { readonly index: number }) | undefined {
  const { layer, position } = toNodeLocation(index, shape.height);
  const partner = pairedLocation(shape, position, layer);
  return partner && { ...partner, index: toNodeIndex(partner.position, partner.layer, shape.height) };
}

/** True for a left child (even index). */
export function isLeftIndex(index: number): boolean {
  return (index & 1) === 0;
}

/**
 * Processing order of node indexes: deeper layers first (longer bit strings), then left to right.
 * This is the order in which sibling hashes are produced and consumed.
 */
export function compareNodeIndexes(a: number, b: number): number {
  const lengthA = bitLength(a);
  const lengthB = bitLength(b);
  return lengthA === lengthB ? a - b : lengthB - lengthA;
}

/** Inserts `index` into a list sorted by compareNodeIndexes unless it is already at its place. */
export function insertNodeIndex(sorted: number[], index: number): void {
  let low = -1;
  let high = sorted.length;
  while (low + 1 < high) {
    const middle = low + ((high - low) >> 1);
    if (compareNodeIndexes(index, sorted[middle] as number) <= 0) high = middle;
    else low = middle;
  }
  if (sorted[high] !== index) sorted.splice(high, 0, index);
}
