import { InvalidParamsError } from '../../errors.js';
import { bytesEqual } from '../bytes.js';
import { branchHash, leafHash } from '../hash.js';
import { treeHeight } from './tree-shape.js';

/**
 * Hard stop for the layer loop below. Every real input finishes within ~32 layers; lisk-tree
 * would spin forever on some malformed inputs, here they throw instead.
 */
const MAX_LAYERS = 1024;

/** Root computed by hashing each path element as the left partner of the running hash. */
function rootFromPath(path: readonly Uint8Array[]): Buffer {
  const [first, ...rest] = path;
  if (first === undefined) throw new InvalidParamsError('Invalid append path: it is empty.');
  let current: Buffer = Buffer.from(first);
  for (const hash of rest) current = branchHash(hash, current);
  return current;
}

/**
 * Root of a full tree from the append path of its first `idx` leaves and the right witness of
 * the remaining ones (LIP 0031 Appendix D, with lisk-tree's exact loop: append-path hashes join
 * on the left where `idx` has a 1 bit, right-witness hashes join on the right where the running
 * index, bumped each time a subtree is completed, has a 1 bit).
 */
export function calculateRootFromRightWitness(idx: number, appendPath: readonly Uint8Array[], rightWitness: readonly Uint8Array[]): Buffer {
  if (appendPath.length === 0) return rootFromPath(rightWitness);
  if (rightWitness.length === 0) return rootFromPath(appendPath);

  let nextLeft = 1;
  let nextRight = 1;
  let current = branchHash(appendPath[0] as Uint8Array, rightWitness[0] as Uint8Array);
  let completedIdx = idx;
  let firstLeftBitSeen = false;
  for (let layer = 0; nextLeft < appendPath.length || nextRight < rightWitness.length; layer += 1) {
    if (layer > MAX_LAYERS) throw new InvalidParamsError('Append path and right witness do not fit the index.');
    if (nextLeft < appendPath.length && ((idx >>> layer) & 1) === 1) {
      if (!firstLeftBitSeen) {
        // The lowest append-path subtree was already used together with the first witness hash.
        completedIdx += 1 << layer;
        firstLeftBitSeen = true;
      } else {
        current = branchHash(appendPath[nextLeft] as Uint8Array, current);
        nextLeft += 1;
      }
    }
    if (nextRight < rightWitness.length && ((completedIdx >>> layer) & 1) === 1) {
      current = branchHash(current, rightWitness[nextRight] as Uint8Array);
      nextRight += 1;
      completedIdx += 1 << layer;
    }
  }
  return current;
}

/** True when the append path at `idx` and the right witness recompute `root` (LIP 0031 App. D). */
export function verifyRightWitness(
  idx: number,
  appendPath: readonly Uint8Array[],
  rightWitness: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  try {
    return bytesEqual(calculateRootFromRightWitness(idx, appendPath, rightWitness), root);
  } catch {
    return false;
  }
}

/**
 * Right witness for appending the raw data `values` to a tree of `size` leaves (lisk-tree
 * `calculateRightWitness`): per layer, if the running index has a 1 bit there, the leftmost
 * pending subtree root is emitted and the running index bumped; the rest are paired upward.
 */
export function calculateRightWitness(size: number, values: readonly Uint8Array[]): Buffer[] {
  if (size === 0) throw new InvalidParamsError('A right witness cannot be generated for an empty tree.');
  if (values.length === 0) return [];
  let hashes = values.map((value) => leafHash(value));
  const witness: Buffer[] = [];
  const height = treeHeight(size + hashes.length);
  let completedIdx = size;
  for (let layer = 0; layer < height && hashes.length > 0; layer += 1) {
    if (((completedIdx >>> layer) & 1) === 1) {
      witness.push(hashes.shift() as Buffer);
      completedIdx += 1 << layer;
    }
    const next: Buffer[] = [];
    for (let i = 0; i < hashes.length; i += 2) {
      const right = hashes[i + 1];
      next.push(right === undefined ? (hashes[i] as Buffer) : branchHash(hashes[i] as Buffer, right));
    }
    hashes = next;
  }
  return witness;
}
