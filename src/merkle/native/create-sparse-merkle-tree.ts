import { SparseMerkleTree } from '../smt/index.js';
import type { SmtNodeStore } from '../smt/index.js';
import { nativeAddon } from '../../native/addon.js';
import { NativeSparseMerkleTree } from './native-sparse-merkle-tree.js';

export interface SparseMerkleTreeOptions {
  /** Use the native addon when it is loaded (default true); false forces the TypeScript tree. */
  readonly native?: boolean;
}

/**
 * A sparse Merkle tree over `store` (LIP 0039): native-backed when the addon is
 * loaded, the TypeScript SparseMerkleTree otherwise. Both honour the same contract and give the
 * same results, so callers need not know which one they hold.
 */
export function createSparseMerkleTree(store: SmtNodeStore, keyLength: number, options: SparseMerkleTreeOptions = {}): SparseMerkleTree {
  if (nativeAddon !== undefined && options.native !== false) {
    return new NativeSparseMerkleTree(store, keyLength, nativeAddon);
  }
  return new SparseMerkleTree(store, keyLength);
}
