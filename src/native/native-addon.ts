/**
 * The raw interface of native/basalt_native.node (the Rust crate in native/, bound to N-API by
 * hand). Callers use the typed wrappers of this folder, never these functions directly: the
 * wrappers validate arguments with the same errors as the TypeScript implementations and turn
 * the flat results into the usual objects.
 */

/**
 * Reads SMT nodes for the addon: `hashes` holds `count` 32-byte hashes back to back; the result
 * has one entry per hash, the stored node encoding or undefined when the store lacks it.
 */
export type NativeNodeReader = (hashes: Buffer, count: number) => readonly (Uint8Array | undefined)[];

/**
 * A batch update's result, flat: write i is hash `writeHashes[32i, 32i + 32)` with data
 * `writeData[writeEnds[i − 1], writeEnds[i])`; removed hash j is `removed[32j, 32j + 32)`.
 * `root` is absent when the root did not change.
 */
export interface NativeUpdateOutput {
  readonly root?: Buffer;
  readonly writeHashes: Buffer;
  readonly writeData: Buffer;
  readonly writeEnds: Uint32Array;
  readonly removed: Buffer;
}

/** A proof, flat: query i has key `keys[i·keyLength, …)`, value and bitmap up to their ends. */
export interface NativeProofOutput {
  readonly siblingHashes: Buffer;
  readonly keys: Buffer;
  readonly values: Buffer;
  readonly valueEnds: Uint32Array;
  readonly bitmaps: Buffer;
  readonly bitmapEnds: Uint32Array;
}

/** Returned instead of a result when the node store lacks a node the operation needs. */
export interface NativeMissingNode {
  readonly missingNode: Buffer;
}

/** A store object made by `nodeStoreCreate` (opaque: it owns the nodes in native memory). */
export interface NativeStoreHandle {
  readonly __nativeNodeStore: unique symbol;
}

/** Where an SMT operation reads nodes: a native store, or a reader over a JavaScript store. */
export type NativeNodes = NativeStoreHandle | NativeNodeReader;

export interface NativeAddon {
  /** SHA-256 of `data` as a new Buffer (allocated by the addon: slower than sha256Into). */
  sha256(data: Uint8Array): Buffer;
  /** Writes SHA-256 of `data` into `out` at `offset` (RangeError without room for 32 bytes). */
  sha256Into(data: Uint8Array, out: Uint8Array, offset: number): void;
  /** SHA-256 of each consecutive segment of `data` (`lengths[i]` bytes each), digests back to back. */
  sha256Many(data: Uint8Array, lengths: Uint32Array): Buffer;
  smtUpdate(
    root: Uint8Array,
    keys: readonly Uint8Array[],
    values: readonly Uint8Array[],
    keyLength: number,
    nodes: NativeNodes,
  ): NativeUpdateOutput | NativeMissingNode;
  smtProve(
    root: Uint8Array,
    queryKeys: readonly Uint8Array[],
    keyLength: number,
    nodes: NativeNodes,
  ): NativeProofOutput | NativeMissingNode;
  nodeStoreCreate(): NativeStoreHandle;
  /** A copy of the node stored under `hash`, or undefined. */
  nodeStoreGet(store: NativeStoreHandle, hash: Uint8Array): Buffer | undefined;
  nodeStoreSet(store: NativeStoreHandle, hash: Uint8Array, data: Uint8Array): void;
  nodeStoreDelete(store: NativeStoreHandle, hash: Uint8Array): void;
  nodeStoreSize(store: NativeStoreHandle): number;
  /** Applies a write set given in the flat form of NativeUpdateOutput. */
  nodeStoreApply(
    store: NativeStoreHandle,
    writeHashes: Uint8Array,
    writeData: Uint8Array,
    writeEnds: Uint32Array,
    removed: Uint8Array,
    prune: boolean,
  ): void;
  /** An id under which other threads of this process can attach to `store` (stable per store). */
  nodeStoreShare(store: NativeStoreHandle): number;
  /** This thread's handle on the store shared under `id`, or undefined once nothing holds it. */
  nodeStoreAttach(id: number): NativeStoreHandle | undefined;
  /** Bytes of native memory the store's nodes occupy (records, uncompacted garbage, table). */
  nodeStoreMemory(store: NativeStoreHandle): number;
  /**
   * Writes every node of `store` and the stamp `meta` to the file at `path` (UTF-8 bytes),
   * durably (temporary file, fsync, rename). Throws an Error when the write fails.
   */
  nodeStoreWriteSnapshot(store: NativeStoreHandle, path: Uint8Array, meta: Uint8Array): void;
  /**
   * Replaces the nodes of `store` with those of the snapshot at `path` and returns its stamp.
   * Throws an Error saying why when the file is unreadable or not an intact snapshot.
   */
  nodeStoreReadSnapshot(store: NativeStoreHandle, path: Uint8Array): Buffer;
  /**
   * PopVerify (LIP 0038) of a compressed 48-byte BLS key and a compressed 96-byte proof: KeyValidate,
   * the proof's group check and e(pk, H_pop(pk)) = e(g1, proof) with the POP DST. False for any
   * other bytes (including other lengths); TypeError only for arguments that are not bytes.
   */
  popVerify(publicKey: Uint8Array, proof: Uint8Array): boolean;
  /**
   * Root of an SMT built from nothing with these entries, flat (key i is `keys[i·keyLength, …)`,
   * value i ends at `valueEnds[i]`): a repeated key keeps its last value, an empty value leaves
   * its key out. RangeError when the arrays disagree.
   */
  smtRootOf(keys: Uint8Array, keyLength: number, values: Uint8Array, valueEnds: Uint32Array): Buffer;
  /**
   * Block eventRoot (LIP 0065) of flat events: encoding i ends at `eventEnds[i]`, topic j at
   * `topicEnds[j]`; event i owns the topics up to `eventTopicEnds[i]` and its keys end with
   * `indexWords[i]` (its index << 2) plus the topic's position. RangeError when the arrays
   * disagree or an index word overflows 32 bits.
   */
  eventRoot(
    encoded: Uint8Array,
    eventEnds: Uint32Array,
    topics: Uint8Array,
    topicEnds: Uint32Array,
    eventTopicEnds: Uint32Array,
    indexWords: Uint32Array,
  ): Buffer;
  /** How SHA-256 is computed: with the CPU's SHA extensions or the portable code. */
  readonly sha256Backend: 'sha-extensions' | 'portable';
  readonly napiVersion: number;
}

/** Names the addon must export; a build that lacks one (an old .node file) is not used. */
export const NATIVE_FUNCTIONS = [
  'sha256',
  'sha256Into',
  'sha256Many',
  'smtUpdate',
  'smtProve',
  'nodeStoreCreate',
  'nodeStoreGet',
  'nodeStoreSet',
  'nodeStoreDelete',
  'nodeStoreSize',
  'nodeStoreApply',
  'nodeStoreShare',
  'nodeStoreAttach',
  'nodeStoreMemory',
  'nodeStoreWriteSnapshot',
  'nodeStoreReadSnapshot',
  'popVerify',
  'smtRootOf',
  'eventRoot',
] as const;
