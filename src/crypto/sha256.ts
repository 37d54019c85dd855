/**
 * SHA-256 (FIPS 180-4), the hash H of the whole protocol. The implementation is chosen in
 * one place, src/native/sha256.ts: the native addon when it is loaded (CPU SHA extensions where
 * the CPU has them), node:crypto's one-shot `hash` otherwise. Same digests either way.
 */
import * as nodeCrypto from 'node:crypto';
import { sha256 } from '../native/sha256.js';

export { sha256 };

/** Length in bytes of a SHA-256 digest. */
export const SHA256_LENGTH = 32;

/** sha256 of the empty input: e3b0c442…b855 (the empty Merkle root, among other uses). */
export const EMPTY_HASH: Buffer = sha256(new Uint8Array(0));

/** H(part₁ ‖ part₂ ‖ …) without building the concatenation first. */
export function sha256Concat(...parts: Uint8Array[]): Buffer {
  const hash = nodeCrypto.createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}
