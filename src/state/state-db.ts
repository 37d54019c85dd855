import type { Database, RootDatabase } from 'lmdb';
import { codec, objectArrayField, objectSchema, type Schema } from '../codec/index.js';
import { EMPTY_HASH, type SmtProof } from '../merkle/index.js';
import { LmdbReader } from './lmdb-reader.js';
import { writeTransaction } from './write-transaction.js';
import type { StateChange } from './overlay-state.js';
import { StateTree, type PreparedStateUpdate, type StateTreeUpdater } from './state-tree.js';
import { InvariantError, StoreError } from '../errors.js';

export type { PreparedStateUpdate, StateTreeUpdater };

interface StoredChange {
  key: Buffer;
  existed: boolean;
  previous: Buffer;
}

interface StoredDiff {
  previousRoot: Buffer;
  moduleChanges: StoredChange[];
  engineChanges: StoredChange[];
}

const changeListProperty = (fieldNumber: number) =>
  objectArrayField(fieldNumber, {
    key: { dataType: 'bytes', fieldNumber: 1 },
    existed: { dataType: 'boolean', fieldNumber: 2 },
    previous: { dataType: 'bytes', fieldNumber: 3 },
  });

/** What a block changed, so that it can be undone while it is not final. */
const diffSchema: Schema = objectSchema('/basalt/state/diff', {
  previousRoot: { dataType: 'bytes', fieldNumber: 1 },
  moduleChanges: changeListProperty(2),
  engineChanges: changeListProperty(3),
});

const ROOT_KEY = Buffer.from('stateRoot');

function heightKey(height: number): Buffer {
  const key = Buffer.alloc(4);
  key.writeUInt32BE(height);
  return key;
}

function toStored(changes: readonly StateChange[]): StoredChange[] {
  return changes.map(({ key, previous }) => ({ key, existed: previous !== undefined, previous: previous ?? Buffer.alloc(0) }));
}

/**
 * The state of the node in its LMDB environment: module store values (the stateRoot data), the
 * engine's own state (BFT votes and parameters, outside the tree), the committed root, and one
 * diff per non-final block. The state SMT itself is held in memory (StateTree says why) and
 * rebuilt from the values when the store opens.
 *
 * Writes go through `transaction`: commit and revert store the block's state in the LMDB write
 * transaction, and the tree moves to the new root only after that transaction committed. A crash
 * or a failed commit leaves the disk at the previous block and the tree is rebuilt from it.
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
  /** The tree update of the block being written, applied once its transaction commits. */
  private pending: PreparedStateUpdate | undefined;
  private writing = false;

  /**
   * `updater`: where `prepareUpdateAsync` computes large updates (the worker pool); only used
   * when the tree is in native memory, which worker threads can read.
   */
  constructor(
    private readonly env: RootDatabase,
    private readonly updater?: StateTreeUpdater,
  ) {
    const open = (name: string): Database<Buffer, Buffer> =>
      env.openDB<Buffer, Buffer>(name, { keyEncoding: 'binary', encoding: 'binary' });
    this.values = open('state.values');
    this.engine = open('state.engine');
    this.diffs = open('state.diffs');
    this.meta = open('state.meta');
    this.moduleReader = new LmdbReader(this.values);
    this.engineReader = new LmdbReader(this.engine);
    dropLegacyNodeTable(env);
    this.tree = StateTree.fromValues(this.values, this.root());
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

  /** Inclusion/non-inclusion proof of 38-byte SMT keys against the committed root (state_prove). */
  prove(queryKeys: readonly Uint8Array[]): SmtProof {
    return this.tree.prove(queryKeys);
  }

  /** Computes the tree update for module-state changes without writing anything. */
  prepareUpdate(changes: readonly StateChange[]): PreparedStateUpdate {
    return this.tree.prepare(changes);
  }

  /**
   * prepareUpdate, computed by the updater in another thread when there is one and the batch is
   * large enough, so the caller can do other work meanwhile (ChainProcessor: the event root).
   * The result is the same either way. Throws if a block is committed or reverted before it
   * settles: the update would be for a state that is gone.
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
  transaction<T>(write: () => T): T {
    if (this.writing) throw new InvariantError('StateDb.transaction does not nest.');
    this.writing = true;
    try {
      const result = writeTransaction(this.env, write);
      if (this.pending !== undefined) this.tree.apply(this.pending);
      return result;
    } finally {
      this.pending = undefined;
      this.writing = false;
    }
  }

  /** Writes one block's state; call inside `transaction`. */
  commit(height: number, moduleChanges: readonly StateChange[], engineChanges: readonly StateChange[], update: PreparedStateUpdate): void {
    const diff: StoredDiff = {
      previousRoot: this.root(),
      moduleChanges: toStored(moduleChanges),
      engineChanges: toStored(engineChanges),
    };
    this.diffs.putSync(heightKey(height), codec.encode(diffSchema, diff));
    this.stage(update);
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
    this.diffs.removeSync(heightKey(height));
  }

  /** Finalized blocks can no longer be reverted: their diffs are dropped. */
  pruneDiffsUpTo(height: number): void {
    for (const key of this.diffs.getKeys({ end: heightKey(height + 1) })) this.diffs.removeSync(key);
  }

  private readDiff(height: number): StoredDiff {
    const bytes = this.diffs.getBinary(heightKey(height));
    if (!bytes) throw new StoreError(`No state diff is stored for height ${height}; it is final or was never applied.`);
    return codec.decode<StoredDiff>(diffSchema, bytes);
  }

  /** Records the block's new root; the tree itself follows once the transaction committed. */
  private stage(update: PreparedStateUpdate): void {
    if (!this.writing) throw new InvariantError('State is written inside StateDb.transaction, which keeps the tree in step with the disk.');
    if (this.pending !== undefined) throw new InvariantError('One state update per transaction: a block was already written in this one.');
    if (!this.tree.root.equals(this.root())) throw new StoreError('Store inconsistency: the state tree is not at the committed root.');
    this.pending = update;
    this.meta.putSync(ROOT_KEY, update.root);
  }

  private write(db: Database<Buffer, Buffer>, key: Buffer, value: Buffer | undefined): void {
    if (value === undefined) db.removeSync(key);
    else db.putSync(key, value);
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
