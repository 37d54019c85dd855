/**
 * Pre-v4 ("legacy") account keys (lisk-cryptography legacy.ts): the Ed25519 seed is
 * SHA-256 of the UTF-8 passphrase. Lisk Core v1–v3 validator keys are of this kind.
 */
import { keyPairFromSeed, type Ed25519KeyPair } from './ed25519.js';
import { sha256 } from './sha256.js';

/** The legacy Ed25519 key pair of a passphrase (SDK `legacy.getKeys`). */
export function legacyKeyPairFromPassphrase(passphrase: string): Ed25519KeyPair {
  return keyPairFromSeed(sha256(Buffer.from(passphrase, 'utf8')));
}
