import { sha256 } from '../../crypto/index.js';
import { LEGACY_ADDRESS_LENGTH } from './constants.js';

/**
 * The 8-byte key of a public key's pre-v4 account in the legacy store (lisk-core utils.ts
 * getLegacyAddress = lisk-cryptography getFirstEightBytesReversed(hash(publicKey))): the first
 * 8 bytes of SHA-256(publicKey) in reverse order, i.e. the v3 numeric address "…L" as big-endian
 * bytes. Any key length is hashed, as in lisk-core.
 */
export function legacyAddressOfPublicKey(publicKey: Uint8Array): Buffer {
  const address = Buffer.from(sha256(publicKey).subarray(0, LEGACY_ADDRESS_LENGTH));
  return address.reverse();
}
