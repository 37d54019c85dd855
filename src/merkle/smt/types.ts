/**
 * Read access to SMT nodes by hash. Synchronous on purpose: LMDB reads are synchronous, and an
 * async get per node would dominate the cost of a tree walk. Returns undefined for an unknown hash.
 *
 * The tree keeps views into returned buffers while it reads further nodes, so a returned buffer
 * must stay valid and unchanged afterwards: a backend whose zero-copy reads reuse one buffer
 * (lmdb's getBinaryFast) must copy. The tree never modifies returned bytes.
 */
export interface SmtNodeStore {
  get(hash: Buffer): Buffer | undefined;
}

/** One node to store: `data` (see node-codec.ts) under its `hash`. */
export interface SmtNodeWrite {
  readonly hash: Buffer;
  readonly data: Buffer;
}

/**
 * What an update changes in the node store. The tree never writes itself, so a caller can put
 * these into its own atomic database transaction.
 * - `writes`: every node of the new tree that is not in the old one, each exactly once.
 * - `removed`: hashes of nodes of the old tree that the new root no longer references. Deleting
 *   them is only safe when nothing else (an older root kept for reverts, another tree sharing
 *   the store) still needs them, so that decision is the caller's.
 */
export interface SmtWriteSet {
  readonly writes: readonly SmtNodeWrite[];
  readonly removed: readonly Buffer[];
}

/** Result of a batch update: the new root plus the write set that realises it. */
export interface SmtUpdateResult extends SmtWriteSet {
  readonly root: Buffer;
}

/**
 * One query of an SMT multiproof (LIP 0039; serialised as key bytes fn1, value bytes
 * fn2, bitmap bytes fn3). For an inclusion proof `key` is the queried key and `value` its value;
 * for non-inclusion either `key` is the queried key and `value` is empty (the path ends in an
 * empty node) or `key`/`value` are those of the other leaf the path ends in.
 */
export interface SmtQuery {
  readonly key: Buffer;
  readonly value: Buffer;
  readonly bitmap: Buffer;
}

/** SMT multiproof (LIP 0039; siblingHashes array<bytes> fn1, queries fn2). */
export interface SmtProof {
  readonly siblingHashes: readonly Buffer[];
  readonly queries: readonly SmtQuery[];
}

/** Proof input accepted by the verifiers: any byte arrays, e.g. straight from a decoder. */
export interface SmtProofInput {
  readonly siblingHashes: readonly Uint8Array[];
  readonly queries: readonly { readonly key: Uint8Array; readonly value: Uint8Array; readonly bitmap: Uint8Array }[];
}

/** A key-value pair of the tree's data set. */
export interface SmtEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}
