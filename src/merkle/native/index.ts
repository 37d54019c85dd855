/**
 * The sparse Merkle trees backed by the native addon (src/native), with the TypeScript trees of
 * src/merkle/smt as their fallback: the same contract, chosen at run time by whether the addon
 * loaded. The event root uses them too.
 */
export { NativeSparseMerkleTree } from './native-sparse-merkle-tree.js';
export { NativeSmtNodeStore } from './native-smt-node-store.js';
export { PackedSmtUpdateResult } from './packed-update-result.js';
export { createSparseMerkleTree } from './create-sparse-merkle-tree.js';
export type { SparseMerkleTreeOptions } from './create-sparse-merkle-tree.js';
export { createInMemoryNodeStore } from './create-node-store.js';
export type { MemoryNodeStore } from './create-node-store.js';
export { computeEventRoot, computeEventRootOfEvents } from './event-root.js';
export { freshSmtRoot } from './fresh-root.js';
