import { latin1Key } from '../bytes.js';
import { bitmapBit, commonPrefixBits } from './key-bits.js';

/**
 * A proof query while a multiproof is built, checked or trimmed (LIP 0039 "Proof Construction" /
 * "Proof Verification"). It starts at the node its path ends in and
 * climbs one level per step: `height` is its current depth, and the bitmap bit for depth
 * `height − 1` says whether the sibling it meets next is non-empty.
 */
export interface PathQuery {
  readonly key: Uint8Array;
  readonly bitmap: Uint8Array;
  height: number;
  /** Hash of the node the query currently stands at (root recomputation only). */
  hash: Buffer;
  /** Non-empty sibling hashes still to be met, root first (proof generation only). */
  readonly siblings: Buffer[];
  /** Whether this branch of the proof belongs only to removed keys (removeKeysFromProof only). */
  removed: boolean;
}

/** Processing order: deepest first, then by key (bottom-up, left to right). */
export function compareQueries(a: PathQuery, b: PathQuery): number {
  return b.height - a.height || Buffer.compare(a.key, b.key);
}

/** True when both queries stand at the same node. */
export function samePath(a: PathQuery, b: PathQuery): boolean {
  return a.height === b.height && commonPrefixBits(a.key, b.key) >= a.height;
}

/** True when the queries stand at the two children of one branch. */
export function areSiblingQueries(a: PathQuery, b: PathQuery): boolean {
  return a.height === b.height && a.height > 0 && commonPrefixBits(a.key, b.key) === a.height - 1;
}

/** Current bitmap bit of a query (its next sibling is non-empty). */
export function nextSiblingPresent(query: PathQuery): boolean {
  return bitmapBit(query.bitmap, query.height - 1) === 1;
}

/**
 * Puts a query that climbed one level back into the sorted queue, dropping it when the query at
 * its insertion point already stands at the same node (the paths merged). Like lisk-db, only that
 * one neighbour is compared.
 */
export function insertQuery(query: PathQuery, queue: PathQuery[]): void {
  let low = -1;
  let high = queue.length;
  while (low + 1 < high) {
    const middle = low + ((high - low) >> 1);
    const other = queue[middle] as PathQuery;
    const goesBefore = query.height > other.height || (query.height === other.height && Buffer.compare(query.key, other.key) < 0);
    if (goesBefore) high = middle;
    else low = middle;
  }
  const atInsertion = queue[high];
  if (atInsertion === undefined) queue.push(query);
  else if (!samePath(query, atInsertion)) queue.splice(high, 0, query);
}

/** Map key naming the node a query stands at: its depth and the key bits above it. */
export function pathKey(key: Uint8Array, height: number): string {
  const bytes = Buffer.from(key.subarray(0, (height + 7) >> 3));
  if ((height & 7) !== 0) {
    const last = bytes.length - 1;
    bytes[last] = (bytes[last] as number) & (0xff << (8 - (height & 7)));
  }
  return `${height}:${latin1Key(bytes)}`;
}
