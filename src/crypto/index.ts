/**
 * The cryptography room (docs/protocol/crypto.md, docs/protocol/keys.md): hashing, message tags,
 * Ed25519 (libsodium), BLS (blst), addresses, key derivation, password encryption, hash onions.
 */
export * from './sha256.js';
export * from './random.js';
export * from './tags.js';
export * from './message.js';
export * from './ed25519.js';
export * from './signature-verifier.js';
export * from './lisk32.js';
export * from './address.js';
export * from './bls.js';
export { BLS_SECRET_KEY_LENGTH, blsSecretScalar } from './bls-secret-key.js';
export * from './bls-pop.js';
export * from './pop-verifier.js';
export * from './bls-aggregate-signature.js';
export * from './bls-batch.js';
export { BlsPublicKeyCache, blsPublicKeyCache } from './bls-public-key-cache.js';
export * from './bip39.js';
export * from './derivation-path.js';
export * from './ed25519-derivation.js';
export * from './eip2333.js';
export * from './legacy-keys.js';
export * from './validator-keys.js';
export * from './hash-onion.js';
export * from './encrypted-message.js';
export * from './encrypted-message-string.js';
export * from './passphrase-v3.js';
