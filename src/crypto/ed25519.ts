/**
 * Ed25519 with libsodium semantics (docs/protocol/crypto.md). Keys follow the SDK: the "private
 * key" is the 64-byte NaCl secret key (32-byte seed ‖ 32-byte public key).
 */
import { CryptoError } from '../errors.js';
import { taggedDigest } from './message.js';
import { sodium } from './sodium.js';

export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const ED25519_PRIVATE_KEY_LENGTH = 64;
export const ED25519_SEED_LENGTH = 32;
export const ED25519_SIGNATURE_LENGTH = 64;

export interface Ed25519KeyPair {
  /** 32 bytes. */
  readonly publicKey: Buffer;
  /** 64 bytes: seed ‖ publicKey. */
  readonly privateKey: Buffer;
}

/** The key pair of an RFC 8032 seed (32 bytes). */
export function keyPairFromSeed(seed: Uint8Array): Ed25519KeyPair {
  if (seed.length !== ED25519_SEED_LENGTH) {
    throw new CryptoError(`Ed25519 seed must be ${ED25519_SEED_LENGTH} bytes, got ${seed.length}.`);
  }
  const publicKey = Buffer.alloc(ED25519_PUBLIC_KEY_LENGTH);
  const privateKey = Buffer.alloc(ED25519_PRIVATE_KEY_LENGTH);
  sodium.crypto_sign_seed_keypair(publicKey, privateKey, seed);
  return { publicKey, privateKey };
}

/**
 * The public key of a private key. For a 64-byte NaCl key this is its second half, as in the SDK
 * (libsodium's sk_to_pk copies it, it does not recompute it); a 32-byte seed is expanded.
 */
export function publicKeyFromPrivateKey(privateKey: Uint8Array): Buffer {
  if (privateKey.length === ED25519_PRIVATE_KEY_LENGTH) {
    return Buffer.from(privateKey.subarray(ED25519_SEED_LENGTH));
  }
  if (privateKey.length === ED25519_SEED_LENGTH) return keyPairFromSeed(privateKey).publicKey;
  throw new CryptoError(
    `Ed25519 private key must be ${ED25519_PRIVATE_KEY_LENGTH} bytes (or a ${ED25519_SEED_LENGTH}-byte seed), got ${privateKey.length}.`,
  );
}

function toSecretKey(privateKey: Uint8Array): Uint8Array {
  if (privateKey.length === ED25519_PRIVATE_KEY_LENGTH) return privateKey;
  if (privateKey.length === ED25519_SEED_LENGTH) return keyPairFromSeed(privateKey).privateKey;
  throw new CryptoError(
    `Ed25519 private key must be ${ED25519_PRIVATE_KEY_LENGTH} bytes (or a ${ED25519_SEED_LENGTH}-byte seed), got ${privateKey.length}.`,
  );
}

/** Detached RFC 8032 signature (64 bytes) of `digest` (normally a 32-byte tagged digest). */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): Buffer {
  const signature = Buffer.alloc(ED25519_SIGNATURE_LENGTH);
  sodium.crypto_sign_detached(signature, digest, toSecretKey(privateKey));
  return signature;
}

/**
 * libsodium's strict verification. Never throws: a signature or key of the wrong length is
 * simply invalid (sodium-native would otherwise throw, or read only a prefix of a longer buffer).
 */
export function verifyDigest(digest: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== ED25519_SIGNATURE_LENGTH || publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) {
    return false;
  }
  return sodium.crypto_sign_verify_detached(signature, digest, publicKey);
}

/** Signs H(tag ‖ chainID ‖ data) (LIP 0037 + LIP 0062; SDK `ed.signData`). */
export function signData(tag: string, chainID: Uint8Array, data: Uint8Array, privateKey: Uint8Array): Buffer {
  return signDigest(taggedDigest(tag, chainID, data), privateKey);
}

/** Verifies a signature over H(tag ‖ chainID ‖ data) (SDK `ed.verifyData`); never throws. */
export function verifyData(tag: string, chainID: Uint8Array, data: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  return verifyDigest(taggedDigest(tag, chainID, data), signature, publicKey);
}
