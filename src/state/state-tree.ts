import type { Database } from 'lmdb';
import {
  EMPTY_HASH,
  STATE_KEY_LENGTH,
  STORE_PREFIX_LENGTH,
  type SmtNodeWrite,
  type SmtProof,
  type SmtWriteSet,
  type SparseMerkleTree,
  smtBranchHash,
  smtLeafHash,
} from '../merkle/index.js';
import { sha256Many } from '../native/index.js';
import {
  createInMemoryNodeStore,
  createSparseMerkleTree,
  NativeSmtNodeStore,
  PackedSmtUpdateResult,
  type MemoryNodeStore,
} from '../merkle/native/index.js';
import type { StateChange } from './overlay-state.js';
import { readTreeSnapshot, writeTreeSnapshot } from './state-tree-snapshot.js';
import { InvariantError, StoreError } from '../errors.js';

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

/**
 * Leaves per batch while the tree is rebuilt. Each batch walks the tree the earlier ones built,
 * so fewer, larger batches are faster (1,000,000 leaves: 3.8 s in one batch, 11.7 s in ten);
 * the cap bounds the write set held at once (some 200 MB at this size).
 */
const REBUILD_BATCH = 1_000_000;

/** The leaf value of a deleted key: an empty value removes it from the tree. */
const EMPTY_LEAF_VALUE = Buffer.alloc(0);

/**
 * The state SMT (LIP 0039) of the committed state, held in memory: native
 * memory when the addon is loaded, a JavaScript map otherwise.
 *
 * Why not in LMDB: nodes are keyed by hash, so each of the ~17 nodes a leaf update rewrites and
 * the ~15 it orphans lands on a random page; a block of 10,000 updates put and deleted ~170,000
 * nodes, 5-6 s of copy-on-write page churn against 0.2 s for the values themselves. The leaves
 * are exactly the stored module values (key → SMT key, value → its hash), and the root depends on
 * that set alone (history independence, LIP 0039), so the values are the durable record and the
 * tree is rebuilt from them when the store opens (`fromValues`).
 *
 * The tree moves to a new root through `apply` (StateDb.transaction: once the LMDB transaction
 * that stored the block has committed) or `advance` (StateDb.queueTransaction: as soon as the
 * transaction is queued, so that the next block's update is computed while this one's writes run
 * on LMDB's write thread). An advanced tree keeps the nodes of the root it left (`settledRoot`,
 * the one proofs are against) until the block is visible (`settle`), or returns to it when the
 * block failed (`rollBack`): at most one block is ever ahead of the disk.
 */
export class StateTree {
  private readonly tree: SparseMerkleTree;
  /** The update `advance` moved the tree by, and the root it left; undefined when settled. */
  private ahead: { readonly update: PreparedStateUpdate; readonly settledRoot: Buffer } | undefined;
  /**
   * The nodes only a root left behind used, once settled (`settle`): dropped by the next change
   * of the tree, in the same pass as that change's writes and before them, or when the whole
   * tree is read (`size`, `writeSnapshot`). Until then nothing reaches them.
   */
  private stale: Buffer | readonly Buffer[] | undefined;
  /** How many stored values `fromValues` built the tree from (undefined for a snapshot). */
  rebuiltFromValues: number | undefined;

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
    let batch: { key: Buffer; value: Buffer }[] = [];
    let count = 0;
    const flush = (): void => {
      const { keys, hashes } = stateTreeLeaves(batch);
      state.apply(state.tree.update(state.currentRoot, keys, hashes));
      batch = [];
    };
    for (const entry of values.getRange()) {
      count += 1;
      batch.push(entry);
      if (batch.length === REBUILD_BATCH) flush();
    }
    if (batch.length > 0) flush();
    if (!state.currentRoot.equals(expectedRoot)) {
      throw new StoreError(
        `Store inconsistency: the stored state values give root ${state.currentRoot.toString('hex')}, ` +
          `the last committed block has ${expectedRoot.toString('hex')}.`,
      );
    }
    state.rebuiltFromValues = count;
    return state;
  }

  /**
   * The tree held in the snapshot file at `path` (StateTree.writeSnapshot), with the stamp it was
   * written with. Nothing is hashed: the nodes are adopted as stored, after the file's checksum
   * and the presence of the stamp's root node are checked. Throws an Error saying why the file
   * cannot be used; the caller then rebuilds the tree from the values.
   */
  static fromSnapshot(path: string): { tree: StateTree; stamp: Buffer } {
    const store = createInMemoryNodeStore();
    const stamp = readTreeSnapshot(store, path);
    const root = snapshotStampRoot(stamp);
    if (root.equals(EMPTY_HASH) ? store.size !== 0 : !storedNodeHashes(store.get(root), root)) {
      throw new Error(`the snapshot does not hold the node of its root ${root.toString('hex')}`);
    }
    return { tree: new StateTree(store, root), stamp };
  }

  /**
   * Writes the tree's nodes to the snapshot file at `path` with `stamp`, whose first 32 bytes must
   * be the current root (the one fromSnapshot adopts).
   */
  writeSnapshot(path: string, stamp: Buffer): void {
    if (this.ahead !== undefined) throw new InvariantError('A tree snapshot is not written while a block is ahead of the disk.');
    if (!snapshotStampRoot(stamp).equals(this.currentRoot)) throw new StoreError('A tree snapshot is stamped with the current root.');
    this.dropStale();
    writeTreeSnapshot(this.store, path, stamp);
  }

  /** Bytes of memory the tree's nodes occupy, when it is in native memory (the bench reports it). */
  memoryBytes(): number | undefined {
    return this.store instanceof NativeSmtNodeStore ? this.store.memoryBytes : undefined;
  }

  /** The root the next update builds on: the last block's, visible or only queued (`advance`). */
  get root(): Buffer {
    return this.currentRoot;
  }

  /** The root of the last block known to be visible: `root`, unless a block is ahead of it. */
  get settledRoot(): Buffer {
    return this.ahead?.settledRoot ?? this.currentRoot;
  }

  /** Nodes held (for logs and tests). */
  get size(): number {
    this.dropStale();
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
    const { keys, hashes } = stateTreeLeaves(changes);
    return this.tree.update(this.currentRoot, keys, hashes);
  }

  /**
   * Moves the tree to `update.root`, dropping the nodes only the old root used (one tree is
   * kept: proofs are always against the committed root).
   */
  apply(update: PreparedStateUpdate): void {
    if (this.ahead !== undefined) throw new InvariantError('A state tree update is not applied while another one is ahead of the disk.');
    this.dropStale();
    this.store.apply(update, true);
    this.currentRoot = update.root;
  }

  /**
   * Moves the tree to `update.root` while keeping every node of the root it leaves, which stays
   * the settled root (proofs) until `settle` or `rollBack`. Nodes are addressed by hash and a
   * node's hash fixes its leaves and its depth, so the two roots share exactly the subtrees the
   * update did not touch: the nodes it writes are new, and those it removes are the old root's
   * alone. That makes both ways out a plain deletion.
   */
  advance(update: PreparedStateUpdate): void {
    if (this.ahead !== undefined) throw new InvariantError('A state tree update is not applied while another one is ahead of the disk.');
    // The nodes the last settled block left go first, in the same pass: a node this update
    // writes may be one of them (a value set back to what it was two blocks ago).
    this.store.apply(withRemoved(update, this.stale), true);
    this.stale = undefined;
    this.ahead = { update, settledRoot: this.currentRoot };
    this.currentRoot = update.root;
  }

  /**
   * The advanced block is visible: its root is the settled one, and the nodes only the root it
   * left used are stale. They are dropped with the next update's writes (`advance`), not now:
   * the next block's transaction is waiting to be queued, and LMDB's write thread with it.
   */
  settle(): void {
    const { ahead } = this;
    if (ahead === undefined) return;
    this.ahead = undefined;
    const { update } = ahead;
    this.stale = update instanceof PackedSmtUpdateResult ? update.removedHashes : update.removed;
  }

  /** The advanced block was not stored: its nodes are dropped and the tree is back at the settled root. */
  rollBack(): void {
    const { ahead } = this;
    if (ahead === undefined) return;
    this.ahead = undefined;
    const { update } = ahead;
    this.store.apply(removal(update instanceof PackedSmtUpdateResult ? update.writeHashes : update.writes.map(({ hash }) => hash)), true);
    this.currentRoot = ahead.settledRoot;
  }

  /** Drops the stale nodes now (see `stale`). */
  private dropStale(): void {
    const { stale } = this;
    if (stale === undefined) return;
    this.stale = undefined;
    this.store.apply(removal(stale), true);
  }

  /**
   * Inclusion/non-inclusion multiproof of 38-byte SMT keys against the settled root: the state of
   * the last block readers can see, never that of a block still being written.
   */
  prove(queryKeys: readonly Uint8Array[]): SmtProof {
    return this.tree.prove(this.settledRoot, queryKeys);
  }
}

/**
 * SMT keys and leaf values (smtKeyFromStateKey, smtValueFromStateValue; an absent value deletes:
 * empty leaf value) of state entries, hashed in two sha256Many calls over packed inputs. One
 * hash at a time, with a Buffer each, took longer than the native tree update itself, and so did
 * Buffer.concat/subarray/copy per entry: the bytes are moved with plain loops instead.
 */
export function stateTreeLeaves(entries: readonly { key: Buffer; value?: Buffer | undefined }[]): { keys: Buffer[]; hashes: Buffer[] } {
  const count = entries.length;
  const keyLengths = new Uint32Array(count);
  const valueLengths: number[] = [];
  let keyBytes = 0;
  let valueBytes = 0;
  for (let i = 0; i < count; i += 1) {
    const { key, value } = entries[i] as { key: Buffer; value?: Buffer };
    keyLengths[i] = checkedKey(key).length - STORE_PREFIX_LENGTH;
    keyBytes += keyLengths[i] as number;
    if (value !== undefined) {
      valueLengths.push(value.length);
      valueBytes += value.length;
    }
  }
  const keyData = Buffer.allocUnsafe(keyBytes);
  const valueData = Buffer.allocUnsafe(valueBytes);
  for (let i = 0, keyAt = 0, valueAt = 0; i < count; i += 1) {
    const { key, value } = entries[i] as { key: Buffer; value?: Buffer };
    for (let b = STORE_PREFIX_LENGTH; b < key.length; b += 1) keyData[keyAt++] = key[b] as number;
    if (value !== undefined) {
      for (let b = 0; b < value.length; b += 1) valueData[valueAt++] = value[b] as number;
    }
  }
  const keyDigests = sha256Many(keyData, keyLengths);
  const valueDigests = sha256Many(valueData, Uint32Array.from(valueLengths));

  const packedKeys = Buffer.allocUnsafe(count * STATE_KEY_LENGTH);
  const keys = new Array<Buffer>(count);
  const hashes = new Array<Buffer>(count);
  for (let i = 0, nextValue = 0; i < count; i += 1) {
    const { key, value } = entries[i] as { key: Buffer; value?: Buffer };
    const at = i * STATE_KEY_LENGTH;
    for (let b = 0; b < STORE_PREFIX_LENGTH; b += 1) packedKeys[at + b] = key[b] as number;
    for (let b = 0; b < 32; b += 1) packedKeys[at + STORE_PREFIX_LENGTH + b] = keyDigests[i * 32 + b] as number;
    keys[i] = packedKeys.subarray(at, at + STATE_KEY_LENGTH);
    if (value === undefined) {
      hashes[i] = EMPTY_LEAF_VALUE;
    } else {
      hashes[i] = valueDigests.subarray(nextValue * 32, (nextValue + 1) * 32);
      nextValue += 1;
    }
  }
  return { keys, hashes };
}

/** A write set that only deletes the nodes of `hashes` (packed: 32 bytes each). */
function removal(hashes: Buffer | readonly Buffer[]): SmtWriteSet {
  if (Buffer.isBuffer(hashes)) return new PackedSmtUpdateResult(EMPTY_HASH, NO_BYTES, NO_BYTES, NO_ENDS, hashes);
  return { writes: [], removed: hashes as readonly Buffer[] };
}

/**
 * The writes of `update` with `removed` in place of its own removed nodes (none when undefined):
 * applied with pruning, `removed` goes first. Kept in the flat form when both are.
 */
function withRemoved(update: PreparedStateUpdate, removed: Buffer | readonly Buffer[] | undefined): SmtWriteSet {
  if (update instanceof PackedSmtUpdateResult && (removed === undefined || Buffer.isBuffer(removed))) {
    return new PackedSmtUpdateResult(update.root, update.writeHashes, update.writeData, update.writeEnds, removed ?? NO_BYTES);
  }
  return { writes: update.writes, removed: removal(removed ?? NO_BYTES).removed };
}

const NO_BYTES = Buffer.alloc(0);
const NO_ENDS = new Uint32Array(0);

/** True when `data`, a stored state-tree node, hashes to `hash` (LIP 0039 leaf or branch hash). */
function storedNodeHashes(data: Buffer | undefined, hash: Buffer): boolean {
  if (data === undefined || data.length === 0) return false;
  const computed =
    data[0] === 0
      ? smtLeafHash(data.subarray(1, 1 + STATE_KEY_LENGTH), data.subarray(1 + STATE_KEY_LENGTH))
      : smtBranchHash(data.subarray(1, 33), data.subarray(33, 65));
  return computed.equals(hash);
}

/** The root a snapshot stamp names: its first 32 bytes (StateDb lays out the rest). */
function snapshotStampRoot(stamp: Buffer): Buffer {
  if (stamp.length < 32) throw new Error('the snapshot stamp is too short');
  return stamp.subarray(0, 32);
}

function checkedKey(key: Buffer): Buffer {
  if (key.length < STORE_PREFIX_LENGTH) {
    throw new StoreError(`Store inconsistency: stored state key ${key.toString('hex')} is shorter than a store prefix.`);
  }
  return key;
}
