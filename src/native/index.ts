/**
 * The native addon (native/, Rust behind hand-written N-API bindings; docs/architecture.md): its
 * loader, SHA-256, which falls back to node:crypto when the addon is not built, and the
 * proof-of-possession check, undefined without the addon; importing this folder is always safe,
 * and `nativeAvailable` and `nativeStatus` say which is in use. This room
 * imports no other room but errors: crypto takes its SHA-256 from here, and the addon-backed
 * sparse Merkle trees live in src/merkle/native, above both.
 */
export { nativeAddon, nativeAvailable, nativeSearch, nativeStatus } from './addon.js';
export { sha256, sha256Into, sha256Many } from './sha256.js';
export { nativePopVerify, NATIVE_POP_KEY_LENGTH, NATIVE_POP_PROOF_LENGTH } from './bls-pop.js';
export { loadAddon, platformTriple, DEFAULT_ADDON_PATH, NATIVE_DISABLE_ENV, NATIVE_PATH_ENV, PREBUILDS_DIR } from './load-addon.js';
export type { AddonLoadResult, AddonSource } from './load-addon.js';
export type { NativeAddon, NativeNodeReader } from './native-addon.js';
