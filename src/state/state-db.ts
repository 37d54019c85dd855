import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import type { Database, RootDatabase } from 'lmdb';
import { EMPTY_HASH, type SmtProof } from '../merkle/index.js';
import { LmdbReader } from './lmdb-reader.js';
import { DIRECT_WRITES, StoreWrites, type WriteSink } from './store-writes.js';
import { writeTransaction } from './write-transaction.js';
import { decodeStateDiff, encodeStateDiff, type StoredDiff } from './state-diff.js';
import type { StateChange } from './overlay-state.js';
import { StateTree, type PreparedStateUpdate, type StateTreeUpdater } from './state-tree.js';
import { InvariantError, StoreError, StoreWriteError } from '../errors.js';

export type { PreparedStateUpdate, StateTreeUpdater, WriteSink };

/** A transaction queued by `StateDb.queueTransaction`: what its `write` returned, and its second half. */
export interface QueuedTransaction<T> {
  readonly result: T;
  /**
   * Resolves once the transaction is visible to every reader (proofs are then against its root);
   * rejects with StoreWriteError if it failed, after the tree went back to the root it had before
   * the transaction was queued. Call it once or many times: it waits only once.
   */
  visible(): Promise<T>;
}

const ROOT_KEY = Buffer.from('stateRoot');
/**
 * The stamp of the tree snapshot written at the last clean shutdown (root ‖ a random generation),
 * present only while no block has been written since: the first commit after it removes it in
 * its own transaction, so a snapshot on disk is trusted only if nothing changed after it.
 */
const SNAPSHOT_KEY = Buffer.from('treeSnapshot');
/** A key of `state.meta` that nothing writes (StateDb.afterFailedCommit removes it). */
const NEVER_WRITTEN_KEY = Buffer.from('neverWritten');
/** The database of the store's own records: the committed root and the snapshot stamp. */
const META_DB = 'state.meta';

/**
 * Where the state tree came from when the store opened (the node logs it). `snapshotDamaged`: a
 * snapshot was recorded and its file is there, but it is not intact or not of the committed root.
 */
export type StateTreeOrigin =
  | { readonly from: 'snapshot' }
  | { readonly from: 'values'; readonly values: number; readonly snapshotUnusable?: string; readonly snapshotDamaged?: boolean };

/**
 * Removes the snapshot stamp from a copy of a store (an archive of a data directory): the copy
 * travels without the snapshot file, so its first open would only report the file missing.
 */
export function forgetTreeSnapshot(env: RootDatabase): void {
  env.openDB<Buffer, Buffer>(META_DB, { keyEncoding: 'binary', encoding: 'binary' }).removeSync(SNAPSHOT_KEY);
}

function heightKey(height: number): Buffer {
  const key = Buffer.alloc(4);
  key.writeUInt32BE(height);
  return key;
}

/**
 * The state of the node in its LMDB environment: module store values (the stateRoot data), the
 * engine's own state (BFT votes and parameters, outside the tree), the committed root, and one
 * diff per non-final block. The state SMT itself is held in memory (StateTree says why) and
 * rebuilt from the values when the store opens.
 *
 * Writes go through `transaction`: commit and revert store the block's state in the LMDB write
 * transaction, and the tree moves to the new root after that transaction committed, or, through
 * `queueTransaction`, as soon as it is queued (the previous root's nodes are kept, for proofs and
 * for going back, until it is visible). A crash leaves the disk at a committed block and the tree
 * is rebuilt from it; a failed commit leaves the disk at the previous block and takes the tree
 * back there.
 * A revert re-applies the previous values through the tree, which by history independence
 * (LIP 0039) gives exactly the previous root.
 */
export class StateDb {
  readonly moduleReader: LmdbReader;
  readonly engineReader: LmdbReader;
  private readonly values: Database<Buffer, Buffer>;
  private readonly engine: Database<Buffer, Buffer>;
  private readonly diffs: Database<Buffer, Buffer>;
  private readonly meta: Database<Buffer, Buffer>;
  private readonly tree: StateTree;
  /** The tree update of the block being written (`transaction` applies it once its transaction commits). */
  private pending: PreparedStateUpdate | undefined;
  private writing = false;
  /** Where the writes of the open transaction go (`transaction`: straight in; `transactionAsync`: collected). */
  private sink: WriteSink = DIRECT_WRITES;
  /** The key of the diff `commit` wrote in the open transaction: present once that transaction is visible. */
  private committedDiffKey: Buffer | undefined;
  /** Settles when the last asynchronous transaction is flushed to disk (rejects with StoreWriteError if it failed). */
  private lastFlush: Promise<void> = Promise.resolve();

  /** Where the tree came from at open: the snapshot, or the stored values (and why not the snapshot). */
  readonly treeOrigin: StateTreeOrigin;
  /** The snapshot stamp is recorded in the store: the next write must remove it. */
  private snapshotRecorded: boolean;

  /**
   * `updater`: where `prepareUpdateAsync` computes large updates (the worker pool); only used
   * when the tree is in native memory, which worker threads can read.
   * `snapshotPath`: the file the tree is saved to at a clean shutdown (`writeSnapshot`) and
   * adopted from at open when its stamp is the one the store recorded; without it the tree is
   * always rebuilt from the values (tools that check a store's values do that).
   */
  constructor(
    private readonly env: RootDatabase,
    private readonly updater?: StateTreeUpdater,
    private readonly snapshotPath?: string,
  ) {
    const open = (name: string): Database<Buffer, Buffer> =>
      env.openDB<Buffer, Buffer>(name, { keyEncoding: 'binary', encoding: 'binary' });
    this.values = open('state.values');
    this.engine = open('state.engine');
    this.diffs = open('state.diffs');
    this.meta = open(META_DB);
    this.moduleReader = new LmdbReader(this.values);
    this.engineReader = new LmdbReader(this.engine);
    dropLegacyNodeTable(env);
    const recorded = this.meta.getBinary(SNAPSHOT_KEY);
    this.snapshotRecorded = recorded !== undefined;
    const loaded = this.loadSnapshot(recorded === undefined ? undefined : Buffer.from(recorded));
    if (loaded.tree !== undefined) {
      this.tree = loaded.tree;
      this.treeOrigin = { from: 'snapshot' };
    } else {
      this.tree = StateTree.fromValues(this.values, this.root());
      const values = this.tree.rebuiltFromValues ?? 0;
      this.treeOrigin = loaded.reason === undefined ? { from: 'values', values } : { from: 'values', values, ...loaded.reason };
    }
  }

  /**
   * The tree of the snapshot file when its stamp is the one recorded in the store and names the
   * committed root; otherwise why not. A file with no recorded stamp is older than the stored
   * state (a block was written after it, or the shutdown did not finish) and is deleted.
   */
  private loadSnapshot(recorded: Buffer | undefined): {
    tree?: StateTree;
    reason?: { snapshotUnusable: string; snapshotDamaged?: boolean };
  } {
    const path = this.snapshotPath;
    if (path === undefined) return {};
    const fileExists = existsSync(path);
    if (recorded === undefined) {
      if (!fileExists) return { reason: { snapshotUnusable: 'none was written at the last shutdown' } };
      rmSync(path, { force: true });
      return { reason: { snapshotUnusable: 'the snapshot is older than the stored state' } };
    }
    // A copy of the LMDB store alone (a backup, an archive) carries the stamp without the file.
    if (!fileExists) return { reason: { snapshotUnusable: `the snapshot file ${path} is missing` } };
    if (!recorded.subarray(0, 32).equals(this.root())) {
      return { reason: { snapshotUnusable: 'the recorded snapshot is not of the committed root', snapshotDamaged: true } };
    }
    let loaded: { tree: StateTree; stamp: Buffer };
    try {
      loaded = StateTree.fromSnapshot(path);
    } catch (error) {
      return { reason: { snapshotUnusable: (error as Error).message, snapshotDamaged: true } };
    }
    if (!loaded.stamp.equals(recorded)) {
      return { reason: { snapshotUnusable: 'the snapshot file is not the one the store recorded' } };
    }
    return { tree: loaded.tree };
  }

  /**
   * Saves the tree to the snapshot file and records its stamp in the store, for the next open to
   * adopt instead of rebuilding (a clean shutdown calls it last). Does nothing without a
   * snapshot path. The file is complete on disk before the stamp is committed: a crash in
   * between leaves a file with no stamp, which the next open ignores.
   */
  writeSnapshot(): void {
    const path = this.snapshotPath;
    if (path === undefined) return;
    if (this.writing) throw new InvariantError('The state tree snapshot is written outside StateDb.transaction.');
    if (!this.tree.root.equals(this.root())) throw new StoreError('Store inconsistency: the state tree is not at the committed root.');
    const stamp = Buffer.concat([this.tree.root, randomBytes(16)]);
    this.tree.writeSnapshot(path, stamp);
    this.env.transactionSync(() => this.meta.putSync(SNAPSHOT_KEY, stamp));
    this.snapshotRecorded = true;
  }

  /** Bytes of native memory the state tree occupies (undefined for the TypeScript tree). */
  treeMemoryBytes(): number | undefined {
    return this.tree.memoryBytes();
  }

  /** The root of the committed state (the empty hash before genesis). */
  root(): Buffer {
    return this.meta.getBinary(ROOT_KEY) ?? EMPTY_HASH;
  }

  /** Nodes in the in-memory state tree. */
  treeSize(): number {
    return this.tree.size;
  }

  /** The in-memory state tree's share id for worker threads (StateTree.shareId). */
  treeShareId(): number | undefined {
    return this.tree.shareId();
  }

  /**
   * Inclusion/non-inclusion proof of 38-byte SMT keys against the committed root (state_prove):
   * while a queued block is not visible yet, the root of the block before it, whose nodes the
   * tree keeps until then.
   */
  prove(queryKeys: readonly Uint8Array[]): SmtProof {
    return this.tree.prove(queryKeys);
  }

  /**
   * Computes the tree update for module-state changes without writing anything, on top of the
   * last block written or queued (`queueTransaction` moves the tree as it queues).
   */
  prepareUpdate(changes: readonly StateChange[]): PreparedStateUpdate {
    return this.tree.prepare(changes);
  }

  /**
   * prepareUpdate, computed by the updater in another thread when there is one and the batch is
   * large enough, so the caller can do other work meanwhile (ChainProcessor: the event root).
   * The result is the same either way. Throws if a block is committed, queued, reverted or rolled
   * back before it settles: the update would be for a state that is not the tree's any more.
   */
  async prepareUpdateAsync(changes: readonly StateChange[]): Promise<PreparedStateUpdate> {
    const { updater } = this;
    const treeId = updater !== undefined && changes.length >= updater.minChanges ? this.tree.shareId() : undefined;
    if (treeId === undefined) return this.prepareUpdate(changes);
    const root = this.tree.root;
    const update = await (updater as StateTreeUpdater).update(treeId, root, changes);
    if (!this.tree.root.equals(root)) throw new StoreError('The state tree moved while an update for it was computed.');
    return update ?? this.prepareUpdate(changes);
  }

  /**
   * Runs `write` (commit, revert, and the chain store's writes of the same block) in one LMDB
   * write transaction, then moves the tree to the root it committed. If the transaction fails,
   * nothing changed, on disk or in memory; a failed commit throws StoreWriteError.
   */
  transaction<T>(write: (writes: WriteSink) => T): T {
    if (this.writing) throw new InvariantError('StateDb.transaction does not nest, nor runs while an asynchronous one commits.');
    this.writing = true;
    try {
      const invalidates = this.snapshotRecorded;
      let result: T;
      try {
        result = writeTransaction(this.env, () => write(DIRECT_WRITES));
      } catch (error) {
        // Rolled back: the stamp is still in the store, and the next write must remove it.
        this.snapshotRecorded = invalidates;
        throw error;
      }
      if (this.pending !== undefined) this.tree.apply(this.pending);
      this.committed(invalidates);
      return result;
    } finally {
      this.endWrite();
    }
  }

  /**
   * `transaction` with the LMDB work on lmdb-js's write thread: `write` runs here and now, its
   * writes (through the sink it is given, and through commit, revert and pruneDiffsUpTo) are
   * collected, and only when it returned are they queued as one transaction. If `write` throws,
   * nothing is queued. Resolves once the transaction is visible to every reader; the flush to
   * disk may still be running then (`flushed`). A transaction that fails rejects with
   * StoreWriteError, and nothing changed, on disk or in memory. Other writes (`transaction`, a
   * second `transactionAsync`) are refused until it settles.
   *
   * Why "visible" and not "flushed": the commit is in the operating system's page cache and in
   * LMDB's meta page once it is visible, so it survives the process being killed; a power loss
   * before the flush ends takes the store back to the last flushed transaction, which is itself
   * consistent (lmdb-js overlappingSync). Waiting for the fsync would only make the next block
   * wait for the disk. docs/architecture.md ("Durability of a committed block") says more.
   */
  async transactionAsync<T>(write: (writes: WriteSink) => T): Promise<T> {
    return this.queueTransaction(write).visible();
  }

  /**
   * The first half of `transactionAsync`: runs `write`, queues its writes, moves the tree to the
   * root `commit` staged (StateTree.advance), and returns at once. The transaction is not visible
   * yet and no other write may start until `visible()` (which does the second half, once) has
   * settled; meanwhile the caller can compute the next block's tree update (`prepareUpdate`,
   * `prepareUpdateAsync`) and execute it on this one's changes (ChainProcessor.processBlocks),
   * while proofs stay against the root readers see. If the transaction fails, `visible()` takes
   * the tree back before it rejects. If `write` throws, nothing is queued and nothing is pending.
   *
   * The tree moves at once, not when the transaction is visible, because the next block's update
   * needs this block's root, and computing it (some 25 ms for 10,000 changes into a million
   * leaves) would otherwise wait for LMDB's write thread to finish this block's puts.
   */
  queueTransaction<T>(write: (writes: WriteSink) => T): QueuedTransaction<T> {
    if (this.writing) throw new InvariantError('StateDb.transactionAsync does not nest, nor runs while another transaction commits.');
    this.writing = true;
    const invalidates = this.snapshotRecorded;
    const writes = new StoreWrites();
    let result: T;
    let flush: Promise<void>;
    try {
      this.sink = writes;
      try {
        result = write(writes);
      } finally {
        this.sink = DIRECT_WRITES;
      }
      flush = writes.issue(this.env).then(
        () => undefined,
        async (error: unknown) => {
          this.afterFailedCommit();
          throw new StoreWriteError(await lmdbCommitError(error));
        },
      );
    } catch (error) {
      this.snapshotRecorded = invalidates;
      this.endWrite();
      throw error;
    }
    // Whoever awaits `flushed` hears of a failure; nobody has to.
    flush.catch(() => undefined);
    this.lastFlush = flush;
    if (this.pending !== undefined) this.tree.advance(this.pending);
    const diffKey = this.committedDiffKey;
    let settling: Promise<T> | undefined;
    return {
      result,
      visible: () => {
        settling ??= this.settleQueued(flush, diffKey, invalidates, result);
        return settling;
      },
    };
  }

  /**
   * The second half of `transactionAsync`: waits until the transaction is visible, then settles
   * the tree on its root (StateTree.settle); if it failed, takes the tree back to the root before.
   */
  private async settleQueued<T>(flush: Promise<void>, diffKey: Buffer | undefined, invalidates: boolean, result: T): Promise<T> {
    try {
      try {
        await this.visible(flush, diffKey);
      } catch (error) {
        this.snapshotRecorded = invalidates;
        this.tree.rollBack();
        throw error;
      }
      this.tree.settle();
      this.committed(invalidates);
      return result;
    } finally {
      this.endWrite();
    }
  }

  /**
   * Settles when every transaction committed so far is flushed to disk; rejects with
   * StoreWriteError when the last asynchronous one could not be committed or flushed.
   */
  flushed(): Promise<void> {
    return this.lastFlush;
  }

  /**
   * Resolves once the transaction whose settling is `flush` is visible to readers on this thread.
   * lmdb-js settles its promise only after the fsync that follows the commit; the transaction is
   * visible before that (the meta page is written, then the data flushed). So the diff the
   * transaction stores, absent before it, is looked for. After one event-loop turn (lmdb-js ends
   * the transaction in a task of its own), this thread sleeps in steps of 50 µs between looks for
   * up to 2 ms: a block of a hundred transactions commits in about one, and sleeping leaves the
   * core to LMDB's write thread and the worker pool, where polling on every turn spent it, while
   * the event loop waits no longer than the synchronous commit used to hold it. After that, one
   * look every 1 to 4 ms on timers (a block of 10,000 updates takes 100 ms or more). Without a
   * diff to look for, the flush is awaited.
   */
  private async visible(flush: Promise<void>, diffKey: Buffer | undefined): Promise<void> {
    if (diffKey === undefined) return flush;
    const settled: { outcome: 'pending' | 'done' | 'failed'; failure?: unknown } = { outcome: 'pending' };
    flush.then(
      () => {
        settled.outcome = 'done';
      },
      (error: unknown) => {
        settled.outcome = 'failed';
        settled.failure = error;
      },
    );
    const isVisible = (): boolean => {
      this.env.resetReadTxn();
      return this.diffs.doesExist(diffKey);
    };
    await nextTurn();
    const sleepUntil = performance.now() + VISIBLE_SLEEP_MS;
    while (settled.outcome === 'pending' && performance.now() < sleepUntil) {
      if (isVisible()) return;
      Atomics.wait(SLEEPER, 0, 0, VISIBLE_SLEEP_STEP_MS);
    }
    let timers = 0;
    for (;;) {
      if (settled.outcome === 'failed') throw settled.failure;
      if (settled.outcome === 'done' || isVisible()) return;
      await sleep(Math.min(VISIBLE_MAX_POLL_MS, 2 ** (timers++ >> 1)));
    }
  }

  /**
   * lmdb-js never settles its flush promise for a transaction that failed, and closing the
   * environment waits for that promise: a node stopping on the failure would hang in
   * `env.close()`. A transaction that changes nothing (removing a key that is never written)
   * needs no disk space, succeeds, and puts a settled flush promise in its place.
   */
  private afterFailedCommit(): void {
    this.meta.remove(NEVER_WRITTEN_KEY).catch(() => undefined);
  }

  /** A transaction ended (committed or not): the next one may start. */
  private endWrite(): void {
    this.pending = undefined;
    this.committedDiffKey = undefined;
    this.writing = false;
  }

  /** After a transaction committed (and the tree followed it): a stale snapshot file goes. */
  private committed(invalidates: boolean): void {
    if (invalidates && !this.snapshotRecorded && this.snapshotPath !== undefined) {
      // The stamp is gone from the store: the file is stale now, and only costs disk.
      rmSync(this.snapshotPath, { force: true });
    }
  }

  /** Writes one block's state; call inside `transaction`. */
  commit(height: number, moduleChanges: readonly StateChange[], engineChanges: readonly StateChange[], update: PreparedStateUpdate): void {
    const diff = encodeStateDiff(this.root(), moduleChanges, engineChanges);
    this.stage(update);
    const diffKey = heightKey(height);
    // `transactionAsync` knows its transaction is visible when this diff appears; one already
    // there (never, when blocks follow each other) could not tell it, and the flush is awaited.
    this.committedDiffKey = this.diffs.doesExist(diffKey) ? undefined : diffKey;
    this.sink.put(this.diffs, diffKey, diff);
    for (const { key, value } of moduleChanges) this.write(this.values, key, value);
    for (const { key, value } of engineChanges) this.write(this.engine, key, value);
  }

  /**
   * Computes the tree update that undoes block `height` and checks that it lands on
   * `expectedRoot` (the parent's stateRoot) before anything is written.
   */
  prepareRevert(height: number, expectedRoot: Buffer): PreparedStateUpdate {
    const diff = this.readDiff(height);
    const update = this.prepareUpdate(
      diff.moduleChanges.map((change) => ({
        key: change.key,
        value: change.existed ? change.previous : undefined,
        previous: undefined,
      })),
    );
    if (!update.root.equals(expectedRoot) || !update.root.equals(diff.previousRoot)) {
      throw new StoreError(`Store inconsistency: reverting height ${height} gives root ${update.root.toString('hex')}.`);
    }
    return update;
  }

  /** Undoes block `height` with a prepared update; call inside `transaction`. */
  revert(height: number, update: PreparedStateUpdate): void {
    const diff = this.readDiff(height);
    this.stage(update);
    for (const change of diff.moduleChanges) this.write(this.values, change.key, change.existed ? change.previous : undefined);
    for (const change of diff.engineChanges) this.write(this.engine, change.key, change.existed ? change.previous : undefined);
    this.sink.remove(this.diffs, heightKey(height));
  }

  /** Finalized blocks can no longer be reverted: their diffs are dropped. */
  pruneDiffsUpTo(height: number): void {
    // Collected first: removing entries while a cursor walks the same range is not something to rely on.
    const keys = [...this.diffs.getKeys({ end: heightKey(height + 1) })];
    for (const key of keys) this.sink.remove(this.diffs, key);
  }

  private readDiff(height: number): StoredDiff {
    const bytes = this.diffs.getBinary(heightKey(height));
    if (!bytes) throw new StoreError(`No state diff is stored for height ${height}; it is final or was never applied.`);
    return decodeStateDiff(bytes);
  }

  /**
   * Records the block's new root; the tree itself follows once the transaction committed
   * (`transaction`) or as it is queued (`queueTransaction`).
   */
  private stage(update: PreparedStateUpdate): void {
    if (!this.writing) throw new InvariantError('State is written inside StateDb.transaction, which keeps the tree in step with the disk.');
    if (this.pending !== undefined) throw new InvariantError('One state update per transaction: a block was already written in this one.');
    if (!this.tree.root.equals(this.root())) throw new StoreError('Store inconsistency: the state tree is not at the committed root.');
    this.pending = update;
    this.sink.put(this.meta, ROOT_KEY, update.root);
    if (this.snapshotRecorded) {
      this.sink.remove(this.meta, SNAPSHOT_KEY);
      this.snapshotRecorded = false;
    }
  }

  private write(db: Database<Buffer, Buffer>, key: Buffer, value: Buffer | undefined): void {
    if (value === undefined) this.sink.remove(db, key);
    else this.sink.put(db, key, value);
  }
}

/**
 * Stores written before the state tree moved to memory kept its nodes in `state.smt`; they are
 * unused now and only cost disk, so the first writer to open the store empties that table.
 */
function dropLegacyNodeTable(env: RootDatabase): void {
  // Named databases are the keys of the environment's main database.
  const named = [...env.getKeys({ start: LEGACY_NODE_TABLE, limit: 1 })];
  if (named[0] !== LEGACY_NODE_TABLE) return;
  const legacy = env.openDB<Buffer, Buffer>(LEGACY_NODE_TABLE, { keyEncoding: 'binary', encoding: 'binary' });
  legacy.dropSync();
}

const LEGACY_NODE_TABLE = 'state.smt';

/** How long `visible` sleeps between looks, blocking this thread, before it looks on timers. */
const VISIBLE_SLEEP_MS = 2;
const VISIBLE_SLEEP_STEP_MS = 0.05;
/** What `visible` sleeps on (Atomics.wait with a timeout: nothing ever wakes it). */
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));
/** The longest `visible` waits between two polls on timers. */
const VISIBLE_MAX_POLL_MS = 4;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The error LMDB reported for a failed asynchronous commit: lmdb-js rejects the writes with a
 * generic "Commit failed" whose `commitError` promise carries it (the synchronous path throws
 * LMDB's error itself, and a StoreWriteError should say the same either way).
 */
async function lmdbCommitError(error: unknown): Promise<unknown> {
  const detail = (error as { commitError?: Promise<unknown> } | undefined)?.commitError;
  if (detail === undefined || typeof detail.then !== 'function') return error;
  let timer: NodeJS.Timeout | undefined;
  // lmdb-js rejects it right after the writes; never wait on it for long.
  const late = new Promise<unknown>((resolve) => {
    timer = setTimeout(() => resolve(error), 1000);
  });
  try {
    return await Promise.race([
      detail.then(
        () => error,
        (cause: unknown) => cause,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
