/** Account addresses (LIP 0018). */
import { FormatError } from '../errors.js';
import { ED25519_PUBLIC_KEY_LENGTH } from './ed25519.js';
import { BINARY_ADDRESS_LENGTH, encodeLisk32 } from './lisk32.js';
import { sha256 } from './sha256.js';

/** address = H(publicKey)[0..20) (SDK `getAddressFromPublicKey`; like it, any key length is hashed). */
export function addressFromPublicKey(publicKey: Uint8Array): Buffer {
  return sha256(publicKey).subarray(0, BINARY_ADDRESS_LENGTH);
}

/** The lisk32 address of a 32-byte Ed25519 public key. */
export function lisk32FromPublicKey(publicKey: Uint8Array): string {
  if (publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw new FormatError(`Public key must be ${ED25519_PUBLIC_KEY_LENGTH} bytes, got ${publicKey.length}.`);
  }
  return encodeLisk32(addressFromPublicKey(publicKey));
}

/**
 * The pre-v4 numeric address "…L": the first 8 bytes of H(publicKey), reversed, read as a
 * big-endian uint64 (i.e. the first 8 bytes read little-endian), in decimal.
 */
export function legacyAddressFromPublicKey(publicKey: Uint8Array): string {
  return `${sha256(publicKey).readBigUInt64LE(0).toString()}L`;
}
