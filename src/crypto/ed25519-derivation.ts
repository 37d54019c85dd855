/**
 * Ed25519 key derivation from a BIP-39 seed (LIP 0066; SLIP-0010 for ed25519), as the SDK does
 * it (docs/protocol/crypto.md): master = HMAC-SHA512("ed25519 seed", seed) →
 * (key, chainCode); each path index i gives HMAC-SHA512(chainCode, 0x00 ‖ key ‖ uint32be(i)).
 * The SDK applies this "hardened" formula to every index, hardened or not, and adds nothing
 * for an index without an apostrophe; Basalt does the same so that keys match.
 */
import { createHmac } from 'node:crypto';
import { mnemonicToSeed } from './bip39.js';
import { parseDerivationPath } from './derivation-path.js';
import { keyPairFromSeed, type Ed25519KeyPair } from './ed25519.js';

const ED25519_CURVE_KEY = 'ed25519 seed';

interface ExtendedKey {
  readonly key: Buffer;
  readonly chainCode: Buffer;
}

function split(digest: Buffer): ExtendedKey {
  return { key: digest.subarray(0, 32), chainCode: digest.subarray(32) };
}

/** The 32-byte Ed25519 seed at `path` below a BIP-39 seed. */
export function ed25519SeedFromBip39Seed(bip39Seed: Uint8Array, path: string): Buffer {
  const indexes = parseDerivationPath(path);
  let node = split(createHmac('sha512', ED25519_CURVE_KEY).update(bip39Seed).digest());
  const data = Buffer.alloc(1 + 32 + 4); // 0x00 ‖ key ‖ uint32be(index)
  for (const index of indexes) {
    node.key.copy(data, 1);
    data.writeUInt32BE(index, 33);
    node = split(createHmac('sha512', node.chainCode).update(data).digest());
  }
  return Buffer.from(node.key);
}

/** The Ed25519 key pair at `path` for a BIP-39 seed. */
export function ed25519KeyPairFromBip39Seed(bip39Seed: Uint8Array, path: string): Ed25519KeyPair {
  return keyPairFromSeed(ed25519SeedFromBip39Seed(bip39Seed, path));
}

/** The Ed25519 key pair at `path` for a passphrase (SDK `ed.getPrivateKeyFromPhraseAndPath`). */
export function ed25519KeyPairFromPassphrase(passphrase: string, path: string): Ed25519KeyPair {
  return ed25519KeyPairFromBip39Seed(mnemonicToSeed(passphrase), path);
}
