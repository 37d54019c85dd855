/**
 * The addon's proof-of-possession check (native/src/bls12_381), or undefined when the addon is
 * not loaded: src/crypto/bls-pop.ts then uses its TypeScript implementation, which gives the
 * same answer on every input (the tests compare the two).
 */
import { nativeAddon } from './addon.js';

/** Key and proof lengths the addon takes: the compressed encodings. */
export const NATIVE_POP_KEY_LENGTH = 48;
export const NATIVE_POP_PROOF_LENGTH = 96;

/**
 * PopVerify(pk, proof) in native code for a compressed key and proof (48 and 96 bytes; any other
 * length is false). Never throws for byte arrays.
 */
export const nativePopVerify: ((publicKey: Uint8Array, proof: Uint8Array) => boolean) | undefined =
  nativeAddon === undefined ? undefined : nativeAddon.popVerify;
