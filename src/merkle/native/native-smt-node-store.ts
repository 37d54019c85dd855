import { InvalidParamsError } from '../../errors.js';
import type { SmtNodeStore, SmtWriteSet } from '../smt/index.js';
import type { NativeAddon, NativeStoreHandle } from '../../native/native-addon.js';
import { PackedSmtUpdateResult } from './packed-update-result.js';

const HASH_LENGTH = 32;

/**
 * SMT node store held in native memory: the drop-in counterpart of InMemorySmtNodeStore (same
 * methods, same semantics) for trees that need no database. A NativeSparseMerkleTree over it
 * reads nodes without calling back into JavaScript, and a write set it produced is applied from
 * its flat buffers: no JavaScript object per node on either side. That is what lets a batch of
 * 10,000 updates into a tree of a million leaves stay in the tens of milliseconds, where reading
 * nodes out of a JavaScript Map costs about a microsecond each.
 *
 * One store can be held by several threads of the process (`share` in one, `attach` in another):
 * the node's state tree lives in the main thread, and workers attach to it to build proofs and
 * updates without a copy. Reads run in parallel; applying a write set waits for them and they
 * wait for it, so no thread ever sees half a write set.
 *
 * The memory is freed when the last thread's store object is garbage collected.
 */
export class NativeSmtNodeStore implements SmtNodeStore {
  /** The native store (passed to the addon's SMT functions). */
  readonly handle: NativeStoreHandle;

  constructor(
    private readonly addon: NativeAddon,
    handle?: NativeStoreHandle,
  ) {
    this.handle = handle ?? addon.nodeStoreCreate();
  }

  /** This thread's store shared under `id` (see `share`), or undefined once nothing holds it. */
  static attach(addon: NativeAddon, id: number): NativeSmtNodeStore | undefined {
    const handle = addon.nodeStoreAttach(id);
    return handle === undefined ? undefined : new NativeSmtNodeStore(addon, handle);
  }

  /** An id other threads pass to `attach` to use this very store (the same id every time). */
  share(): number {
    return this.addon.nodeStoreShare(this.handle);
  }

  /** A copy of the node stored under `hash` (it stays valid whatever the store does later). */
  get(hash: Buffer): Buffer | undefined {
    if (hash.length !== HASH_LENGTH) return undefined;
    return this.addon.nodeStoreGet(this.handle, hash);
  }

  /** Number of stored nodes. */
  get size(): number {
    return this.addon.nodeStoreSize(this.handle);
  }

  /** Bytes of native memory the nodes occupy: records, garbage not yet compacted, the table. */
  get memoryBytes(): number {
    return this.addon.nodeStoreMemory(this.handle);
  }

  /** Writes every node and `meta` to the snapshot file at `path` (native/src/smt/snapshot.rs). */
  writeSnapshot(path: string, meta: Uint8Array): void {
    this.addon.nodeStoreWriteSnapshot(this.handle, Buffer.from(path), meta);
  }

  /** Replaces the nodes with those of the snapshot at `path`; returns its `meta`. Throws if damaged. */
  readSnapshot(path: string): Buffer {
    return this.addon.nodeStoreReadSnapshot(this.handle, Buffer.from(path));
  }

  /** Stores a copy of `data` under `hash` (replacing any node stored under that hash). */
  set(hash: Buffer, data: Buffer): void {
    this.addon.nodeStoreSet(this.handle, checkHash(hash), data);
  }

  /** Deletes the node stored under `hash`, if any. */
  delete(hash: Buffer): void {
    if (hash.length === HASH_LENGTH) this.addon.nodeStoreDelete(this.handle, hash);
  }

  /**
   * Stores the nodes of a write set. With `prune`, the nodes it reports as no longer referenced
   * are deleted first; leave it off while older roots must stay readable.
   */
  apply(writeSet: SmtWriteSet, prune = false): void {
    if (writeSet instanceof PackedSmtUpdateResult) {
      const { writeHashes, writeData, writeEnds, removedHashes } = writeSet;
      this.addon.nodeStoreApply(this.handle, writeHashes, writeData, writeEnds, removedHashes, prune);
      return;
    }
    if (prune) {
      for (const hash of writeSet.removed) this.delete(hash);
    }
    for (const { hash, data } of writeSet.writes) this.set(hash, data);
  }
}

function checkHash(hash: Buffer): Buffer {
  if (hash.length !== HASH_LENGTH) {
    throw new InvalidParamsError(`SMT node hashes are ${HASH_LENGTH} bytes, got ${hash.length}.`);
  }
  return hash;
}
