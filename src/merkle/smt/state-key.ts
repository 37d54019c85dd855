import { FormatError } from '../../errors.js';
import { HASH_LENGTH, sha256 } from '../hash.js';

/** Bytes of a raw state key kept verbatim in its SMT key: 4-byte module prefix ‖ 2-byte substore prefix. */
export const STORE_PREFIX_LENGTH = 6;

/** Key length of the state tree (LIP 0040: 6 prefix bytes ‖ 32-byte key hash). */
export const STATE_KEY_LENGTH = STORE_PREFIX_LENGTH + HASH_LENGTH;

/**
 * SMT key of a raw state key (LIP 0040): its first 6 bytes (store and substore prefix)
 * followed by the hash of the rest, 38 bytes in all.
 */
export function smtKeyFromStateKey(rawKey: Uint8Array): Buffer {
  if (rawKey.length < STORE_PREFIX_LENGTH) {
    throw new FormatError(`State key must be at least ${STORE_PREFIX_LENGTH} bytes, got ${rawKey.length}.`);
  }
  const key = Buffer.allocUnsafe(STATE_KEY_LENGTH);
  key.set(rawKey.subarray(0, STORE_PREFIX_LENGTH), 0);
  key.set(sha256(rawKey.subarray(STORE_PREFIX_LENGTH)), STORE_PREFIX_LENGTH);
  return key;
}

/** SMT value of a raw state value (LIP 0040): its hash. Deletion uses an empty value instead. */
export function smtValueFromStateValue(value: Uint8Array): Buffer {
  return sha256(value);
}
