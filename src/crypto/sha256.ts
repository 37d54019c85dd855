/**
 * SHA-256, the hash H of the whole protocol. One-shot `crypto.hash` (Node
 * ≥ 20.12) skips the Hash object that `createHash` allocates and is measurably faster for the
 * short inputs that dominate (tags, keys, tree nodes).
 */
import * as nodeCrypto from 'node:crypto';

type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'buffer') => Buffer;

// Typed as possibly missing: Node releases before 20.12 do not have `crypto.hash`.
const oneShot: OneShotHash | undefined = nodeCrypto.hash;

/** Length in bytes of a SHA-256 digest. */
export const SHA256_LENGTH = 32;

/** sha256 of the empty input: e3b0c442…b855 (the empty Merkle root, among other uses). */
export const EMPTY_HASH: Buffer = nodeCrypto.createHash('sha256').digest();

/** H(data) = SHA-256(data), 32 bytes. */
export const sha256: (data: Uint8Array) => Buffer =
  oneShot === undefined ? (data) => nodeCrypto.createHash('sha256').update(data).digest() : (data) => oneShot('sha256', data, 'buffer');

/** H(part₁ ‖ part₂ ‖ …) without building the concatenation first. */
export function sha256Concat(...parts: Uint8Array[]): Buffer {
  const hash = nodeCrypto.createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}
