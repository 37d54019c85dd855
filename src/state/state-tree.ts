import type { Database } from 'lmdb';
import {
  EMPTY_HASH,
  smtKeyFromStateKey,
  smtValueFromStateValue,
  STATE_KEY_LENGTH,
  type SmtNodeWrite,
  type SmtProof,
  type SparseMerkleTree,
} from '../merkle/index.js';
import { createInMemoryNodeStore, createSparseMerkleTree, NativeSmtNodeStore, type MemoryNodeStore } from '../native/index.js';
import type { StateChange } from './overlay-state.js';

/** A computed but not yet applied state-tree update. */
export interface PreparedStateUpdate {
  readonly root: Buffer;
  readonly writes: readonly SmtNodeWrite[];
  readonly removed: readonly Buffer[];
}

/**
 * Computes state-tree updates in another thread of the process (the worker pool:
 * src/workers/pool-state-tree-updater.ts), on the tree shared under `treeId`.
 */
export interface StateTreeUpdater {
  /** Batches smaller than this are computed in place: a thread round trip would cost more. */
  readonly minChanges: number;
  /**
   * The update `changes` make to the tree at `root`, or undefined when it could not be computed
   * there (the caller then computes it itself).
   */
  update(treeId: number, root: Buffer, changes: readonly StateChange[]): Promise<PreparedStateUpdate | undefined>;
}

/** Leaves per batch while the tree is rebuilt: bounds the write set held at once. */
const REBUILD_BATCH = 100_000;

/**
 * The state SMT (LIP 0039; protocol.md §6.2) of the committed state, held in memory: native
 * memory when the addon is loaded, a JavaScript map otherwise.
 *
 * Why not in LMDB: nodes are keyed by hash, so each of the ~17 nodes a leaf update rewrites and
 * the ~15 it orphans lands on a random page; a block of 10,000 updates put and deleted ~170,000
 * nodes, 5-6 s of copy-on-write page churn against 0.2 s for the values themselves. The leaves
 * are exactly the stored module values (key → SMT key, value → its hash), and the root depends on
 * that set alone (history independence, LIP 0039), so the values are the durable record and the
 * tree is rebuilt from them when the store opens (`fromValues`).
 *
 * The tree moves to a new root only through `apply`, which StateDb calls once the LMDB
 * transaction that stored the block has committed: memory never runs ahead of the disk.
 */
export class StateTree {
  private readonly tree: SparseMerkleTree;

  private constructor(
    private readonly store: MemoryNodeStore,
    private currentRoot: Buffer,
  ) {
    this.tree = createSparseMerkleTree(store, STATE_KEY_LENGTH);
  }

  /**
   * The tree of every value in `values`. Throws when its root is not `expectedRoot` (the root
   * committed with the last block): the values and the chain disagree, and the store is corrupt.
   */
  static fromValues(values: Database<Buffer, Buffer>, expectedRoot: Buffer): StateTree {
    const state = new StateTree(createInMemoryNodeStore(), EMPTY_HASH);
    let keys: Buffer[] = [];
    let hashes: Buffer[] = [];
    const flush = (): void => {
      state.apply(state.tree.update(state.currentRoot, keys, hashes));
      keys = [];
      hashes = [];
    };
    for (const { key, value } of values.getRange()) {
      keys.push(smtKeyFromStateKey(key));
      hashes.push(smtValueFromStateValue(value));
      if (keys.length === REBUILD_BATCH) flush();
    }
    if (keys.length > 0) flush();
    if (!state.currentRoot.equals(expectedRoot)) {
      throw new Error(
        `Store inconsistency: the stored state values give root ${state.currentRoot.toString('hex')}, ` +
          `the last committed block has ${expectedRoot.toString('hex')}.`,
      );
    }
    return state;
  }

  /** The root of the tree as it is now (the committed state's). */
  get root(): Buffer {
    return this.currentRoot;
  }

  /** Nodes held (for logs and tests). */
  get size(): number {
    return this.store.size;
  }

  /**
   * An id under which worker threads can read this very tree (NativeSmtNodeStore.attach), or
   * undefined when the tree is in JavaScript memory, which other threads cannot see.
   */
  shareId(): number | undefined {
    return this.store instanceof NativeSmtNodeStore ? this.store.share() : undefined;
  }

  /** The update module-state `changes` make to the current tree, computed without applying it. */
  prepare(changes: readonly StateChange[]): PreparedStateUpdate {
    return this.tree.update(
      this.currentRoot,
      changes.map(change => smtKeyFromStateKey(change.key)),
      changes.map(change => (change.value === undefined ? Buffer.alloc(0) : smtValueFromStateValue(change.value))),
    );
  }

  /**
   * Moves the tree to `update.root`, dropping the nodes only the old root used (one tree is
   * kept: proofs are always against the committed root).
   */
  apply(update: PreparedStateUpdate): void {
    this.store.apply(update, true);
    this.currentRoot = update.root;
  }

  /** Inclusion/non-inclusion multiproof of 38-byte SMT keys against the current root. */
  prove(queryKeys: readonly Uint8Array[]): SmtProof {
    return this.tree.prove(this.currentRoot, queryKeys);
  }
}
