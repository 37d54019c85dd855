import { bytesEqual } from '../bytes.js';
import { EMPTY_HASH, smtBranchHash, smtLeafHash } from '../hash.js';
import { isEmptyHash } from './empty-hash.js';
import { keyBit } from './key-bits.js';
import { loadNode } from './load-node.js';
import {
  LEAF_TAG,
  branchNodeLeft,
  branchNodeRight,
  encodeBranchNode,
  encodeLeafNode,
  isLeafNode,
  leafNodeKey,
  leafNodeValue,
} from './node-codec.js';
import type { SortedBatch } from './sort-entries.js';
import type { SmtNodeStore, SmtNodeWrite, SmtUpdateResult } from './types.js';

/** Kind of the node a step returned. UNKNOWN: an untouched non-empty node not looked up yet. */
const EMPTY = 0;
const LEAF = 1;
const BRANCH = 2;
const UNKNOWN = 3;
type NodeKind = typeof EMPTY | typeof LEAF | typeof BRANCH | typeof UNKNOWN;

/**
 * One batch update of a sparse Merkle tree (LIP 0039 "Root Hash Calculation" and "Removing a Leaf
 * Node" folded into one pass; the shape is in docs/protocol/merkle-trees.md).
 *
 * The batch is sorted by key, so the keys below any node form a contiguous range, and the range is
 * split by the bit at the node's depth with a binary search. Walking down, only nodes on the paths
 * of batch keys are read; walking back up, each changed node is encoded and hashed exactly once.
 * The result always has the canonical, history-independent shape (a subtree holding one leaf is
 * that leaf, an empty subtree is EMPTY_HASH) because every step rebuilds its node through
 * `combine`, which applies exactly these two rules:
 * - a branch whose children are Empty and a Leaf becomes that Leaf (it moves up; its hash does not
 *   depend on its depth, so nothing is rehashed);
 * - a branch whose children are both Empty becomes Empty.
 *
 * A step whose subtree did not change hands back the very same Buffer object it was given; that
 * is how a parent knows it has nothing to rewrite, so rewriting a value with itself or deleting an
 * absent key produces no writes at all. Every replaced old node is reported in `removed`; a leaf
 * that only moves keeps its hash and is neither written nor removed.
 *
 * An empty value deletes its key; deleting an absent key changes nothing.
 */
export class BatchUpdate {
  private readonly writes: SmtNodeWrite[] = [];
  private readonly removed: Buffer[] = [];
  /** insertsBefore[i] = number of non-empty values among keys[0, i); absent if there are no deletes. */
  private readonly insertsBefore: Int32Array | undefined;
  /** Kind of the node returned by the last step (a second return value without an allocation). */
  private kind: NodeKind = EMPTY;

  constructor(
    private readonly store: SmtNodeStore,
    private readonly keyLength: number,
    private readonly batch: SortedBatch,
  ) {
    const { values } = batch;
    if (values.some((value) => value.length === 0)) {
      const counts = new Int32Array(values.length + 1);
      for (let i = 0; i < values.length; i += 1) {
        counts[i + 1] = (counts[i] as number) + ((values[i] as Uint8Array).length > 0 ? 1 : 0);
      }
      this.insertsBefore = counts;
    }
  }

  /** Applies the batch below `root` and returns the new root with its write set. */
  run(root: Buffer): SmtUpdateResult {
    const newRoot = this.updateNode(root, 0, 0, this.batch.keys.length);
    return { root: newRoot === root ? root : Buffer.from(newRoot), writes: this.writes, removed: this.removed };
  }

  /** New hash of the subtree at `depth` whose current hash is `hash`, after keys[lo, hi). */
  private updateNode(hash: Buffer, depth: number, lo: number, hi: number): Buffer {
    if (lo === hi) {
      this.kind = isEmptyHash(hash) ? EMPTY : UNKNOWN;
      return hash;
    }
    if (isEmptyHash(hash)) {
      const built = this.buildNew(depth, lo, hi);
      // Still empty (only deletes): hand back the same object so the parent sees no change.
      return this.kind === EMPTY ? hash : built;
    }
    const data = loadNode(this.store, hash);
    if (data[0] === LEAF_TAG) return this.updateLeaf(hash, data, depth, lo, hi);

    const left = branchNodeLeft(data);
    const right = branchNodeRight(data);
    const split = this.splitIndex(lo, hi, depth);
    const newLeft = this.updateNode(left, depth + 1, lo, split);
    const leftKind = this.kind;
    const newRight = this.updateNode(right, depth + 1, split, hi);
    const rightKind = this.kind;
    if (newLeft === left && newRight === right) {
      this.kind = BRANCH;
      return hash;
    }
    this.removed.push(hash);
    return this.combine(newLeft, leftKind, newRight, rightKind);
  }

  /**
   * New hash of the subtree at `depth` that currently holds the single leaf `hash`/`data`. The
   * leaf is pushed down beside the batch keys until they part ways; where its own key is in the
   * batch, it is replaced or deleted.
   */
  private updateLeaf(hash: Buffer, data: Buffer, depth: number, lo: number, hi: number): Buffer {
    const { keys, values } = this.batch;
    const leafKey = leafNodeKey(data, this.keyLength);
    if (hi - lo === 1) {
      const value = values[lo] as Uint8Array;
      if (bytesEqual(keys[lo] as Uint8Array, leafKey)) {
        if (value.length > 0 && bytesEqual(value, leafNodeValue(data, this.keyLength))) {
          this.kind = LEAF;
          return hash;
        }
        this.removed.push(hash);
        if (value.length === 0) {
          this.kind = EMPTY;
          return EMPTY_HASH;
        }
        return this.newLeaf(keys[lo] as Uint8Array, value);
      }
      if (value.length === 0) {
        this.kind = LEAF;
        return hash;
      }
    } else if (this.countInserts(lo, hi) === 0 && !this.containsKey(leafKey, lo, hi)) {
      // Only deletions of keys that are not here.
      this.kind = LEAF;
      return hash;
    }

    const split = this.splitIndex(lo, hi, depth);
    let left: Buffer;
    let right: Buffer;
    let leftKind: NodeKind;
    let rightKind: NodeKind;
    if (keyBit(leafKey, depth) === 0) {
      left = lo === split ? hash : this.updateLeaf(hash, data, depth + 1, lo, split);
      leftKind = lo === split ? LEAF : this.kind;
      right = this.buildNew(depth + 1, split, hi);
      rightKind = this.kind;
    } else {
      left = this.buildNew(depth + 1, lo, split);
      leftKind = this.kind;
      right = split === hi ? hash : this.updateLeaf(hash, data, depth + 1, split, hi);
      rightKind = split === hi ? LEAF : this.kind;
    }
    return this.combine(left, leftKind, right, rightKind);
  }

  /** Hash of a new subtree at `depth` holding the inserts among keys[lo, hi) (deletes ignored). */
  private buildNew(depth: number, lo: number, hi: number): Buffer {
    const inserts = this.countInserts(lo, hi);
    if (inserts === 0) {
      this.kind = EMPTY;
      return EMPTY_HASH;
    }
    const { keys, values } = this.batch;
    if (inserts === 1) {
      let at = lo;
      while ((values[at] as Uint8Array).length === 0) at += 1;
      return this.newLeaf(keys[at] as Uint8Array, values[at] as Uint8Array);
    }
    const split = this.splitIndex(lo, hi, depth);
    const left = this.buildNew(depth + 1, lo, split);
    const leftKind = this.kind;
    const right = this.buildNew(depth + 1, split, hi);
    return this.combine(left, leftKind, right, this.kind);
  }

  /** The node with children `left` and `right`, in canonical form (see the class comment). */
  private combine(left: Buffer, leftKind: NodeKind, right: Buffer, rightKind: NodeKind): Buffer {
    if (leftKind === EMPTY) {
      if (rightKind === EMPTY) {
        this.kind = EMPTY;
        return EMPTY_HASH;
      }
      if (this.resolveKind(right, rightKind) === LEAF) {
        this.kind = LEAF;
        return right;
      }
    } else if (rightKind === EMPTY && this.resolveKind(left, leftKind) === LEAF) {
      this.kind = LEAF;
      return left;
    }
    const hash = smtBranchHash(left, right);
    this.writes.push({ hash, data: encodeBranchNode(left, right) });
    this.kind = BRANCH;
    return hash;
  }

  private newLeaf(key: Uint8Array, value: Uint8Array): Buffer {
    const hash = smtLeafHash(key, value);
    this.writes.push({ hash, data: encodeLeafNode(key, value) });
    this.kind = LEAF;
    return hash;
  }

  /** Kind of a node; an untouched node is read from the store only when a collapse needs it. */
  private resolveKind(hash: Buffer, kind: NodeKind): NodeKind {
    if (kind !== UNKNOWN) return kind;
    return isLeafNode(loadNode(this.store, hash)) ? LEAF : BRANCH;
  }

  /** First index in [lo, hi) whose key has bit `depth` set (keys there share bits 0..depth−1). */
  private splitIndex(lo: number, hi: number, depth: number): number {
    const { keys } = this.batch;
    let low = lo;
    let high = hi;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (keyBit(keys[middle] as Uint8Array, depth) === 1) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private countInserts(lo: number, hi: number): number {
    const counts = this.insertsBefore;
    return counts === undefined ? hi - lo : (counts[hi] as number) - (counts[lo] as number);
  }

  /** True if `key` is one of keys[lo, hi) (binary search; keys are sorted). */
  private containsKey(key: Uint8Array, lo: number, hi: number): boolean {
    const { keys } = this.batch;
    let low = lo;
    let high = hi;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = Buffer.compare(keys[middle] as Uint8Array, key);
      if (order === 0) return true;
      if (order < 0) low = middle + 1;
      else high = middle;
    }
    return false;
  }
}
