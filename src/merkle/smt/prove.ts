import { FormatError } from '../../errors.js';
import { latin1Key } from '../bytes.js';
import { isEmptyHash } from './empty-hash.js';
import { encodeBitmap, keyBit } from './key-bits.js';
import { loadNode } from './load-node.js';
import { branchNodeLeft, branchNodeRight, isLeafNode, leafNodeKey, leafNodeValue } from './node-codec.js';
import { compareQueries, insertQuery, nextSiblingPresent } from './path-query.js';
import type { PathQuery } from './path-query.js';
import type { SmtNodeStore, SmtProof, SmtQuery } from './types.js';

/**
 * SMT multiproof for `queryKeys` under `root` (LIP 0039 "Proof Construction" as lisk-db builds it;
 * docs/protocol/merkle-trees.md). Queries keep the order of `queryKeys`. Each key's path is walked
 * from the root to a leaf or an empty node; then all paths are climbed together, deepest first and
 * left to right, and each non-empty sibling met is emitted once, unless it is a node on some
 * query's path (the verifier computes those itself).
 */
export function generateSmtProof(store: SmtNodeStore, keyLength: number, root: Buffer, queryKeys: readonly Uint8Array[]): SmtProof {
  if (queryKeys.length === 0) return { siblingHashes: [], queries: [] };
  const pathNodes = new Set<string>();
  const queries: SmtQuery[] = [];
  const climbing: PathQuery[] = [];
  for (const queryKey of queryKeys) {
    if (queryKey.length !== keyLength) {
      throw new FormatError(`SMT query key must be ${keyLength} bytes, got ${queryKey.length}.`);
    }
    const walk = walkPath(store, keyLength, root, queryKey, pathNodes);
    queries.push({ key: walk.key, value: walk.value, bitmap: walk.bitmap });
    climbing.push({
      key: walk.key,
      bitmap: walk.bitmap,
      height: walk.siblingFlags.length,
      hash: root,
      siblings: walk.siblings,
      removed: false,
    });
  }
  climbing.sort(compareQueries);

  const siblingHashes: Buffer[] = [];
  const emitted = new Set<string>();
  while (climbing.length > 0) {
    const query = climbing.shift() as PathQuery;
    if (query.height === 0) continue;
    if (nextSiblingPresent(query)) {
      const sibling = query.siblings.pop() as Buffer;
      const id = latin1Key(sibling);
      if (!pathNodes.has(id) && !emitted.has(id)) {
        emitted.add(id);
        siblingHashes.push(Buffer.from(sibling));
      }
    }
    query.height -= 1;
    insertQuery(query, climbing);
  }
  return { siblingHashes, queries };
}

interface PathWalk {
  readonly key: Buffer;
  readonly value: Buffer;
  readonly bitmap: Buffer;
  readonly siblingFlags: number[];
  readonly siblings: Buffer[];
}

/** Walks `queryKey`'s path to a leaf or an empty node, noting every node passed in `pathNodes`. */
function walkPath(store: SmtNodeStore, keyLength: number, root: Buffer, queryKey: Uint8Array, pathNodes: Set<string>): PathWalk {
  const siblingFlags: number[] = [];
  const siblings: Buffer[] = [];
  let hash = root;
  for (let depth = 0; ; depth += 1) {
    if (isEmptyHash(hash)) {
      const bitmap = encodeBitmap(siblingFlags);
      return { key: Buffer.from(queryKey), value: Buffer.alloc(0), bitmap, siblingFlags, siblings };
    }
    const data = loadNode(store, hash);
    pathNodes.add(latin1Key(hash));
    if (isLeafNode(data)) {
      return {
        key: Buffer.from(leafNodeKey(data, keyLength)),
        value: Buffer.from(leafNodeValue(data, keyLength)),
        bitmap: encodeBitmap(siblingFlags),
        siblingFlags,
        siblings,
      };
    }
    const goRight = keyBit(queryKey, depth) === 1;
    const sibling = goRight ? branchNodeLeft(data) : branchNodeRight(data);
    if (isEmptyHash(sibling)) {
      siblingFlags.push(0);
    } else {
      siblingFlags.push(1);
      siblings.push(sibling);
    }
    hash = goRight ? branchNodeRight(data) : branchNodeLeft(data);
  }
}
