/**
 * LIP 0031 inclusion proof (serialised as size uint64 fn1, idxs array<uint64> fn2, siblingHashes
 * array<bytes> fn3). `idxs` are LIP 0031 node indexes in query order, 0 for a query that is not in
 * the tree; `siblingHashes` are in consumption order (bottom-up, left to right).
 */
export interface MerkleProof {
  readonly size: number;
  readonly idxs: readonly number[];
  readonly siblingHashes: readonly Buffer[];
}

/**
 * The proof shape `calculateRootFromUpdateData` takes (lisk-tree names the index list `indexes`).
 */
export interface MerkleUpdateProof {
  readonly size: number;
  readonly indexes: readonly number[];
  readonly siblingHashes: readonly Uint8Array[];
}

/** State of a tree that is only appended to: enough to compute the next root (LIP 0031 App. B). */
export interface AppendState {
  /** Merkle root after `size` leaves. */
  readonly root: Buffer;
  /** Roots of the perfect subtrees that make up the tree, bottom-up (one per set bit of size). */
  readonly appendPath: readonly Buffer[];
  readonly size: number;
}
