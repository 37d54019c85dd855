import type { Database, RootDatabase } from 'lmdb';
import { codec, type Schema } from '../codec/index.js';
import {
  EMPTY_HASH,
  SparseMerkleTree,
  smtKeyFromStateKey,
  smtValueFromStateValue,
  STATE_KEY_LENGTH,
  type SmtNodeWrite,
  type SmtProof,
} from '../merkle/index.js';
import { createSparseMerkleTree } from '../native/index.js';
import { LmdbReader } from './lmdb-reader.js';
import type { StateChange } from './overlay-state.js';

/** A computed but not yet written state-tree update. */
export interface PreparedStateUpdate {
  readonly root: Buffer;
  readonly writes: readonly SmtNodeWrite[];
  readonly removed: readonly Buffer[];
}

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
  ({
    type: 'array',
    fieldNumber,
    items: {
      type: 'object',
      required: ['key', 'existed', 'previous'],
      properties: {
        key: { dataType: 'bytes', fieldNumber: 1 },
        existed: { dataType: 'boolean', fieldNumber: 2 },
        previous: { dataType: 'bytes', fieldNumber: 3 },
      },
    },
  }) as const;

/** What a block changed, so that it can be undone while it is not final. */
const diffSchema = {
  $id: '/basalt/state/diff',
  type: 'object',
  required: ['previousRoot', 'moduleChanges', 'engineChanges'],
  properties: {
    previousRoot: { dataType: 'bytes', fieldNumber: 1 },
    moduleChanges: changeListProperty(2),
    engineChanges: changeListProperty(3),
  },
} as unknown as Schema;

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
 * state SMT's nodes, the engine's own state (BFT votes and parameters, outside the tree), and one
 * diff per non-final block.
 *
 * Only the current tree is kept: nodes the new root no longer references are deleted at commit.
 * A revert re-applies the previous values through the tree, which by history independence
 * (LIP 0039) rebuilds exactly the previous root and its nodes.
 */
export class StateDb {
  readonly moduleReader: LmdbReader;
  readonly engineReader: LmdbReader;
  private readonly values: Database<Buffer, Buffer>;
  private readonly nodes: Database<Buffer, Buffer>;
  private readonly engine: Database<Buffer, Buffer>;
  private readonly diffs: Database<Buffer, Buffer>;
  private readonly meta: Database<Buffer, Buffer>;
  private readonly tree: SparseMerkleTree;

  constructor(env: RootDatabase) {
    const open = (name: string): Database<Buffer, Buffer> =>
      env.openDB<Buffer, Buffer>(name, { keyEncoding: 'binary', encoding: 'binary' });
    this.values = open('state.values');
    this.nodes = open('state.smt');
    this.engine = open('state.engine');
    this.diffs = open('state.diffs');
    this.meta = open('state.meta');
    this.moduleReader = new LmdbReader(this.values);
    this.engineReader = new LmdbReader(this.engine);
    // Native (Rust) tree when the addon is built, the TypeScript one otherwise: same roots, same
    // write sets, same proofs (test/unit/native), so the store's bytes do not depend on which.
    this.tree = createSparseMerkleTree({ get: hash => this.nodes.getBinary(hash) ?? undefined }, STATE_KEY_LENGTH);
  }

  /** The root of the committed state (the empty hash before genesis). */
  root(): Buffer {
    return this.meta.getBinary(ROOT_KEY) ?? EMPTY_HASH;
  }

  /** Inclusion/non-inclusion proof of 38-byte SMT keys against the committed root (state_prove). */
  prove(queryKeys: readonly Uint8Array[]): SmtProof {
    return this.tree.prove(this.root(), queryKeys);
  }

  /** Computes the tree update for module-state changes without writing anything. */
  prepareUpdate(changes: readonly StateChange[]): PreparedStateUpdate {
    return this.tree.update(
      this.root(),
      changes.map(change => smtKeyFromStateKey(change.key)),
      changes.map(change => (change.value === undefined ? Buffer.alloc(0) : smtValueFromStateValue(change.value))),
    );
  }

  /** Writes one block's state; call inside the environment's write transaction. */
  commit(
    height: number,
    moduleChanges: readonly StateChange[],
    engineChanges: readonly StateChange[],
    update: PreparedStateUpdate,
  ): void {
    const diff: StoredDiff = {
      previousRoot: this.root(),
      moduleChanges: toStored(moduleChanges),
      engineChanges: toStored(engineChanges),
    };
    this.diffs.putSync(heightKey(height), codec.encode(diffSchema, diff));
    this.applyTree(update);
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
      diff.moduleChanges.map(change => ({
        key: change.key,
        value: change.existed ? change.previous : undefined,
        previous: undefined,
      })),
    );
    if (!update.root.equals(expectedRoot) || !update.root.equals(diff.previousRoot)) {
      throw new Error(`Store inconsistency: reverting height ${height} gives root ${update.root.toString('hex')}.`);
    }
    return update;
  }

  /** Undoes block `height` with a prepared update; call inside the write transaction. */
  revert(height: number, update: PreparedStateUpdate): void {
    const diff = this.readDiff(height);
    this.applyTree(update);
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
    if (!bytes) throw new Error(`No state diff is stored for height ${height}; it is final or was never applied.`);
    return codec.decode<StoredDiff>(diffSchema, bytes);
  }

  private applyTree(update: PreparedStateUpdate): void {
    // A leaf keeps its hash when it moves to another depth, so it can be both "removed" from its
    // old place and "written" to its new one: delete first, then write.
    for (const hash of update.removed) this.nodes.removeSync(hash);
    for (const { hash, data } of update.writes) this.nodes.putSync(hash, data);
    this.meta.putSync(ROOT_KEY, update.root);
  }

  private write(db: Database<Buffer, Buffer>, key: Buffer, value: Buffer | undefined): void {
    if (value === undefined) db.removeSync(key);
    else db.putSync(key, value);
  }
}
