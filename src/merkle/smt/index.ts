/** Sparse Merkle tree (LIP 0039 as implemented by lisk-db; docs/protocol/merkle-trees.md). */
export { SparseMerkleTree } from './sparse-merkle-tree.js';
export { InMemorySmtNodeStore } from './in-memory-node-store.js';
export { calculateRoot } from './calculate-root.js';
export { verify, verifyInclusionProof, verifyNonInclusionProof, isInclusionProofForQueryKey } from './verify.js';
export { removeKeysFromProof } from './remove-keys.js';
export { computeEventRoot, computeEventRootOfEvents, eventLeaves, EVENT_KEY_LENGTH } from './event-root.js';
export type { EventLeaf, EventLeafSource } from './event-root.js';
export { freshSmtRoot } from './fresh-root.js';
export { smtKeyFromStateKey, smtValueFromStateValue, STATE_KEY_LENGTH, STORE_PREFIX_LENGTH } from './state-key.js';
export { encodeLeafNode, encodeBranchNode, isLeafNode } from './node-codec.js';
export type {
  SmtNodeStore,
  SmtNodeWrite,
  SmtWriteSet,
  SmtUpdateResult,
  SmtQuery,
  SmtProof,
  SmtProofInput,
  SmtEntry,
} from './types.js';
