/**
 * BLS signatures, ciphersuite BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_ (minimal public key
 * size: keys in G1, 48 bytes; signatures in G2, 96 bytes), after LIP 0038 and LIP 0062
 * (docs/protocol/crypto.md). Raw functions take the message as is; the tagged ones sign the 32-byte
 * digest H(tag ‖ chainID ‖ message).
 *
 * Every verification returns false, never throws, on malformed input. Behaviour follows
 * lisk-cryptography 4.x (blst 0.2.x): signatures are group-checked when verified; public keys are
 * decoded without the subgroup check in Verify and FastAggregateVerify (the identity is refused
 * by Verify; see fastAggregateVerify for its one quirk).
 */
import {
  Signature,
  aggregateSignatures as blstAggregateSignatures,
  aggregateVerify as blstAggregateVerify,
  fastAggregateVerify as blstFastAggregateVerify,
  verify as blstVerify,
  type PublicKey,
} from '@chainsafe/blst';
import { CryptoError } from '../errors.js';
import { blsPublicKeyCache } from './bls-public-key-cache.js';
import { toBlstSecretKey } from './bls-secret-key.js';
import { taggedDigest } from './message.js';

export const BLS_PUBLIC_KEY_LENGTH = 48;
export const BLS_SIGNATURE_LENGTH = 96;

/** SkToPk: the 48-byte compressed public key. Throws CryptoError for an invalid secret key. */
export function blsPublicKeyFromSecretKey(secretKey: Uint8Array): Buffer {
  return Buffer.from(toBlstSecretKey(secretKey).toPublicKey().toBytes(true));
}

/** KeyValidate: the bytes decode to a point of G1 other than the identity. */
export function blsKeyValidate(publicKey: Uint8Array): boolean {
  return blsPublicKeyCache.getValidated(publicKey) !== undefined;
}

/** CoreSign(sk, message) with the signature DST; 96 bytes. */
export function blsSign(secretKey: Uint8Array, message: Uint8Array): Buffer {
  return Buffer.from(toBlstSecretKey(secretKey).sign(message).toBytes(true));
}

function decodeSignature(signature: Uint8Array): Signature | undefined {
  try {
    // Group membership is checked by the verify call itself; decoding checks the curve.
    return Signature.fromBytes(signature, false);
  } catch {
    return undefined;
  }
}

/** CoreVerify(pk, message, signature); false on any malformed input. */
export function blsVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const key = blsPublicKeyCache.get(publicKey);
  const sig = decodeSignature(signature);
  if (key === undefined || sig === undefined) return false;
  try {
    return blstVerify(message, key, sig, false, true);
  } catch {
    return false;
  }
}

/** Aggregate (G2 sum) of signatures; throws CryptoError for an empty list or a malformed signature. */
export function aggregateSignatures(signatures: readonly Uint8Array[]): Buffer {
  if (signatures.length === 0) throw new CryptoError('Cannot aggregate an empty list of BLS signatures.');
  const decoded: Signature[] = [];
  for (const signature of signatures) {
    const sig = decodeSignature(signature);
    if (sig === undefined) throw new CryptoError('Cannot aggregate: malformed BLS signature.');
    decoded.push(sig);
  }
  try {
    return Buffer.from(blstAggregateSignatures(decoded, false).toBytes(true));
  } catch {
    throw new CryptoError('Cannot aggregate BLS signatures.');
  }
}

function decodeKeys(publicKeys: readonly Uint8Array[]): PublicKey[] | undefined {
  const keys: PublicKey[] = [];
  for (const publicKey of publicKeys) {
    const key = blsPublicKeyCache.get(publicKey);
    if (key === undefined) return undefined;
    keys.push(key);
  }
  return keys;
}

/**
 * FastAggregateVerify(pks, message, signature); false for an empty key list and any malformed
 * input. Like the SDK (and unlike the IETF draft), the keys are not KeyValidated: they are
 * summed first, so an identity key in the list is harmless and accepted (the eth2 vector
 * `fast_aggregate_verify_infinity_pubkey` is true here, as in lisk-cryptography). On chain every
 * key has a verified proof of possession, so it cannot be the identity.
 */
export function fastAggregateVerify(publicKeys: readonly Uint8Array[], message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKeys.length === 0) return false;
  const keys = decodeKeys(publicKeys);
  const sig = decodeSignature(signature);
  if (keys === undefined || sig === undefined) return false;
  try {
    return blstFastAggregateVerify(message, keys, sig, true);
  } catch {
    return false;
  }
}

/** AggregateVerify(pks, messages, signature) for distinct messages; false on malformed input. */
export function aggregateVerify(publicKeys: readonly Uint8Array[], messages: readonly Uint8Array[], signature: Uint8Array): boolean {
  if (publicKeys.length === 0 || publicKeys.length !== messages.length) return false;
  const keys = decodeKeys(publicKeys);
  const sig = decodeSignature(signature);
  if (keys === undefined || sig === undefined) return false;
  try {
    return blstAggregateVerify([...messages], keys, sig, false, true);
  } catch {
    return false;
  }
}

/** signBLS (LIP 0062): CoreSign(sk, H(tag ‖ chainID ‖ message)). SDK `bls.signData`. */
export function signBLS(tag: string, chainID: Uint8Array, message: Uint8Array, secretKey: Uint8Array): Buffer {
  return blsSign(secretKey, taggedDigest(tag, chainID, message));
}

/** verifyBLS (LIP 0062): CoreVerify(pk, H(tag ‖ chainID ‖ message), signature). SDK `bls.verifyData`. */
export function verifyBLS(tag: string, chainID: Uint8Array, message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  return blsVerify(publicKey, taggedDigest(tag, chainID, message), signature);
}
