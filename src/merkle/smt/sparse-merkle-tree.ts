import { FormatError, InvalidParamsError } from '../../errors.js';
import { bytesEqual } from '../bytes.js';
import { BatchUpdate } from './batch-update.js';
import { isEmptyHash, normalizeRoot } from './empty-hash.js';
import { keyBit } from './key-bits.js';
import { loadNode } from './load-node.js';
import { branchNodeLeft, branchNodeRight, isLeafNode, leafNodeKey, leafNodeValue } from './node-codec.js';
import { generateSmtProof } from './prove.js';
import { sortBatch } from './sort-entries.js';
import { verify, verifyInclusionProof, verifyNonInclusionProof } from './verify.js';
import type { SmtEntry, SmtNodeStore, SmtProof, SmtProofInput, SmtUpdateResult } from './types.js';

/**
 * Sparse Merkle tree of LIP 0039 as lisk-db implements it (docs/protocol/merkle-trees.md), over any
 * node store. The tree object holds no root and writes nothing: `update` takes a root and returns
 * the new root with the nodes to store, so one store can serve many roots (state versions,
 * per-block event trees) and the caller decides when the write set is committed.
 *
 * Keys have a fixed length per tree (events 12, state 38, tests 32). An empty value deletes.
 */
export class SparseMerkleTree {
  constructor(
    readonly store: SmtNodeStore,
    readonly keyLength: number,
  ) {
    if (!Number.isInteger(keyLength) || keyLength <= 0) {
      throw new InvalidParamsError(`SMT key length must be a positive integer, got ${keyLength}.`);
    }
  }

  /**
   * Applies a batch under `root` (LIP 0039 "Root Hash Calculation" + "Removing a Leaf Node"). Keys
   * may come in any order and repeat (the last write of a key wins); an empty value deletes its
   * key, deleting an absent key changes nothing. The resulting root depends only on the final
   * key-value set, never on how updates were batched or ordered. `root` may be empty bytes for the
   * empty tree. The store is only read.
   */
  update(root: Uint8Array, keys: readonly Uint8Array[], values: readonly Uint8Array[]): SmtUpdateResult {
    if (keys.length !== values.length) {
      throw new InvalidParamsError(`SMT update needs one value per key (${keys.length} keys, ${values.length} values).`);
    }
    const start = normalizeRoot(root);
    if (keys.length === 0) return { root: start, writes: [], removed: [] };
    for (const key of keys) this.assertKey(key);
    return new BatchUpdate(this.store, this.keyLength, sortBatch(keys, values)).run(start);
  }

  /** update for a list of key-value pairs (lisk-db's `update(root, kvpairs)` shape). */
  updateEntries(root: Uint8Array, entries: readonly SmtEntry[]): SmtUpdateResult {
    return this.update(
      root,
      entries.map((entry) => entry.key),
      entries.map((entry) => entry.value),
    );
  }

  /** Value stored for `key` under `root`, or undefined if the key is not in the tree. */
  get(root: Uint8Array, key: Uint8Array): Buffer | undefined {
    this.assertKey(key);
    let hash = normalizeRoot(root);
    for (let depth = 0; !isEmptyHash(hash); depth += 1) {
      const data = loadNode(this.store, hash);
      if (isLeafNode(data)) {
        if (!bytesEqual(leafNodeKey(data, this.keyLength), key)) return undefined;
        return Buffer.from(leafNodeValue(data, this.keyLength));
      }
      hash = keyBit(key, depth) === 1 ? branchNodeRight(data) : branchNodeLeft(data);
    }
    return undefined;
  }

  /**
   * Multiproof of inclusion or non-inclusion for `queryKeys` under `root` (LIP 0039 "Proof
   * Construction"; exact lisk-db format). Queries keep the order of the keys.
   */
  prove(root: Uint8Array, queryKeys: readonly Uint8Array[]): SmtProof {
    return generateSmtProof(this.store, this.keyLength, normalizeRoot(root), queryKeys);
  }

  /** verify (LIP 0039 "Proof Verification") with this tree's key length. */
  verify(queryKeys: readonly Uint8Array[], proof: SmtProofInput, root: Uint8Array): boolean {
    return verify(queryKeys, proof, root, this.keyLength);
  }

  /** verifyInclusionProof with this tree's key length. */
  verifyInclusionProof(queryKeys: readonly Uint8Array[], proof: SmtProofInput, root: Uint8Array): boolean {
    return verifyInclusionProof(queryKeys, proof, root, this.keyLength);
  }

  /** verifyNonInclusionProof with this tree's key length. */
  verifyNonInclusionProof(queryKeys: readonly Uint8Array[], proof: SmtProofInput, root: Uint8Array): boolean {
    return verifyNonInclusionProof(queryKeys, proof, root, this.keyLength);
  }

  private assertKey(key: Uint8Array): void {
    if (key.length !== this.keyLength) {
      throw new FormatError(`SMT key must be ${this.keyLength} bytes, got ${key.length}.`);
    }
  }
}
