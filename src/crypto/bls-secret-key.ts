/**
 * BLS secret keys: 32-byte big-endian scalars (LIP 0038). The SDK (blst 0.2.x) accepted any
 * 32 bytes except 0, r and 2r and signed with the value reduced mod r; blst 2.x rejects every
 * value ≥ r, so values in (r, 2²⁵⁶) are reduced here first to keep the SDK's behaviour.
 * 0, r and 2r — the multiples of r that fit in 32 bytes — give the identity and are refused.
 */
import { SecretKey } from '@chainsafe/blst';
import { CryptoError } from '../errors.js';
import { R } from './bls12-381/field.js';

export const BLS_SECRET_KEY_LENGTH = 32;

function scalarFromBytes(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex')}`);
}

/**
 * The canonical scalar (1 ≤ sk < r) of a 32-byte secret key. Throws CryptoError for a wrong
 * length and for 0, r and 2r (the keys lisk-cryptography refuses to sign with).
 */
export function blsSecretScalar(secretKey: Uint8Array): bigint {
  if (secretKey.length !== BLS_SECRET_KEY_LENGTH) {
    throw new CryptoError(`BLS secret key must be ${BLS_SECRET_KEY_LENGTH} bytes, got ${secretKey.length}.`);
  }
  const scalar = scalarFromBytes(secretKey) % R;
  if (scalar === 0n) throw new CryptoError('BLS secret key is not valid (zero or a multiple of the group order).');
  return scalar;
}

/** A blst SecretKey for the 32 bytes, after the checks of `blsSecretScalar`. */
export function toBlstSecretKey(secretKey: Uint8Array): SecretKey {
  const scalar = blsSecretScalar(secretKey);
  const canonical =
    scalar === scalarFromBytes(secretKey) ? secretKey : Buffer.from(scalar.toString(16).padStart(2 * BLS_SECRET_KEY_LENGTH, '0'), 'hex');
  return SecretKey.fromBytes(canonical);
}
