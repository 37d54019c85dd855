/** The merkle room: regular (LIP 0031) and sparse (LIP 0039) Merkle trees. */
export * from './rmt/index.js';
export * from './smt/index.js';
export { EMPTY_HASH, sha256, leafHash, branchHash, smtLeafHash, smtBranchHash } from './hash.js';
