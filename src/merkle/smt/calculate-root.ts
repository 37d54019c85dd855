import { InvalidParamsError } from '../../errors.js';
import { EMPTY_HASH, smtBranchHash, smtLeafHash } from '../hash.js';
import { isEmptyHash } from './empty-hash.js';
import { bitmapBit, bitmapHeight, keyBit } from './key-bits.js';
import { areSiblingQueries, compareQueries, insertQuery, nextSiblingPresent, pathKey } from './path-query.js';
import type { PathQuery } from './path-query.js';
import type { SmtProofInput } from './types.js';

type ProofQueryInput = SmtProofInput['queries'][number];

/** A climbing query for a proof query whose bitmap height is already known. */
export function toPathQuery(query: ProofQueryInput, height: number): PathQuery {
  return {
    key: query.key,
    bitmap: query.bitmap,
    height,
    hash: query.value.length === 0 ? EMPTY_HASH : smtLeafHash(query.key, query.value),
    siblings: [],
    removed: false,
  };
}

/**
 * The proof's queries with duplicates (same node) removed the way lisk-db's `calculateRoot` does
 * it: by node path, the later query replacing the earlier, without consistency checks (those are
 * `verify`'s job). Throws if a bitmap is longer than its key.
 */
export function dedupeQueriesByPath(queries: SmtProofInput['queries']): PathQuery[] {
  const byPath = new Map<string, PathQuery>();
  for (const query of queries) {
    const height = bitmapHeight(query.bitmap);
    if (height > query.key.length * 8) throw new InvalidParamsError('SMT proof bitmap is longer than its key.');
    byPath.set(pathKey(query.key, height), toPathQuery(query, height));
  }
  return [...byPath.values()];
}

/**
 * Root hash a multiproof stands for (LIP 0039 `calculateRoot`; lisk-db
 * `calculateRoot`). Throws InvalidParamsError when the proof is inconsistent or its sibling
 * hashes do not match its bitmaps.
 */
export function calculateRoot(proof: SmtProofInput): Buffer {
  return rootFromQueries(proof.siblingHashes, dedupeQueriesByPath(proof.queries));
}

/** Root hash of already deduplicated queries (see climbQueries); `queries` is consumed. */
export function rootFromQueries(siblingHashes: readonly Uint8Array[], queries: PathQuery[]): Buffer {
  // Undefined only without queries; lisk-db answers an empty root there, which matches no real root.
  return climbQueries(siblingHashes, queries) ?? Buffer.alloc(0);
}

/** What a replay of a proof (removeKeysFromProof) learns at each step of climbQueries. */
export interface ClimbObserver {
  /** `query` met `sibling`, the next query, which stood at its sibling node and merged into it. */
  merged(query: PathQuery, sibling: PathQuery): void;
  /** `query` took `hash`, the proof's next sibling hash. */
  consumed(query: PathQuery, hash: Uint8Array): void;
}

/**
 * Climbs all queries to the root, deepest first and left to right, and returns the root hash
 * (undefined when there are no queries). At each step the sibling is the next query if it stands
 * at the sibling node (after checking that both bitmaps agree), else EMPTY_HASH if the bitmap bit
 * is 0, else the next sibling hash; every sibling hash must be used. `queries` is consumed.
 */
export function climbQueries(siblingHashes: readonly Uint8Array[], queries: PathQuery[], observer?: ClimbObserver): Buffer | undefined {
  const queue = queries.sort(compareQueries);
  let nextSibling = 0;
  while (queue.length > 0) {
    const query = queue.shift() as PathQuery;
    if (query.height === 0) {
      if (nextSibling !== siblingHashes.length) {
        throw new InvalidParamsError('Not all SMT proof sibling hashes were used.');
      }
      return query.hash;
    }
    let siblingHash: Uint8Array;
    const next = queue[0];
    if (next !== undefined && areSiblingQueries(query, next)) {
      queue.shift();
      assertMergeConsistent(next, query);
      siblingHash = next.hash;
      observer?.merged(query, next);
    } else if (!nextSiblingPresent(query)) {
      siblingHash = EMPTY_HASH;
    } else {
      const hash = siblingHashes[nextSibling];
      if (hash === undefined) throw new InvalidParamsError('The SMT proof has too few sibling hashes.');
      siblingHash = hash;
      nextSibling += 1;
      observer?.consumed(query, hash);
    }
    climb(query, siblingHash);
    insertQuery(query, queue);
  }
  return undefined;
}

/** Moves a query one level up, hashing its node with `siblingHash` on the side its key says. */
function climb(query: PathQuery, siblingHash: Uint8Array): void {
  const isRightChild = keyBit(query.key, query.height - 1) === 1;
  query.hash = isRightChild ? smtBranchHash(siblingHash, query.hash) : smtBranchHash(query.hash, siblingHash);
  query.height -= 1;
}

/**
 * Two queries meeting at one branch must agree: each one's current bitmap bit says whether the
 * other's node is non-empty, and above that their bitmaps describe the same path.
 */
function assertMergeConsistent(sibling: PathQuery, query: PathQuery): void {
  const height = query.height;
  if (isEmptyHash(sibling.hash) === nextSiblingPresent(query) || isEmptyHash(query.hash) === nextSiblingPresent(sibling)) {
    throw new InvalidParamsError('SMT proof bitmap is not consistent with the node types.');
  }
  for (let depth = 0; depth < height - 1; depth += 1) {
    if (bitmapBit(query.bitmap, depth) !== bitmapBit(sibling.bitmap, depth)) {
      throw new InvalidParamsError('SMT proof queries do not share a common path.');
    }
  }
}
