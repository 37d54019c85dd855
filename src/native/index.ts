/**
 * The native addon (native/, Rust behind hand-written N-API bindings; docs/architecture.md) and its
 * typed wrappers. Each function falls back to the TypeScript implementation when the addon is not
 * built, so importing this folder is always safe; `nativeAvailable` and `nativeStatus` say which
 * is in use.
 *
 * src/crypto (and through it src/merkle) imports `./sha256.js` directly rather than this index:
 * the SMT wrappers below import the merkle room, and the index would close an import cycle.
 */
export { nativeAddon, nativeAvailable, nativeStatus } from './addon.js';
export { sha256, sha256Into, sha256Many } from './sha256.js';
export { NativeSparseMerkleTree } from './native-sparse-merkle-tree.js';
export { NativeSmtNodeStore } from './native-smt-node-store.js';
export { PackedSmtUpdateResult } from './packed-update-result.js';
export { createSparseMerkleTree } from './create-sparse-merkle-tree.js';
export type { SparseMerkleTreeOptions } from './create-sparse-merkle-tree.js';
export { createInMemoryNodeStore } from './create-node-store.js';
export type { MemoryNodeStore } from './create-node-store.js';
export { loadAddon, DEFAULT_ADDON_PATH, NATIVE_DISABLE_ENV, NATIVE_PATH_ENV } from './load-addon.js';
export type { AddonLoadResult } from './load-addon.js';
export type { NativeAddon, NativeNodeReader } from './native-addon.js';
export { computeEventRoot } from './event-root.js';
