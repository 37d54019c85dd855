/**
 * BLS key derivation (EIP-2333, LIP 0066): master = KeyGen(seed) of
 * draft-irtf-cfrg-bls-signature-04 (HKDF_mod_r), child(index) = KeyGen(compressed Lamport
 * public key of (parent, index)). Paths have no hardening; the SDK tooling uses
 * m/12381/134/<chainid>/<n>.
 */
import { createHash, hkdfSync } from 'node:crypto';
import { CryptoError } from '../errors.js';
import { mnemonicToSeed } from './bip39.js';
import { R } from './bls12-381/field.js';
import { parseDerivationPath } from './derivation-path.js';

const KEYGEN_SALT = Buffer.from('BLS-SIG-KEYGEN-SALT-', 'ascii');
/** L = ceil(3 · ceil(log2(r)) / 16) = 48. */
const KEYGEN_OKM_LENGTH = 48;
const LAMPORT_CHUNKS = 255;
const LAMPORT_CHUNK_LENGTH = 32;

function toBytes32(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

/**
 * HKDF_mod_r / KeyGen(IKM) with empty key_info: a 32-byte big-endian scalar in [1, r).
 * The salt is re-hashed on every round, as draft 04 specifies (a zero result is retried).
 */
export function blsKeyGen(ikm: Uint8Array): Buffer {
  if (ikm.length < 32) throw new CryptoError('BLS KeyGen needs at least 32 bytes of input keying material.');
  const ikmWithSuffix = Buffer.concat([ikm, Buffer.of(0)]);
  const info = Buffer.of(0, KEYGEN_OKM_LENGTH); // key_info ‖ I2OSP(L, 2)
  let salt: Buffer = KEYGEN_SALT;
  for (;;) {
    salt = createHash('sha256').update(salt).digest();
    const okm = Buffer.from(hkdfSync('sha256', ikmWithSuffix, salt, info, KEYGEN_OKM_LENGTH));
    const scalar = BigInt(`0x${okm.toString('hex')}`) % R;
    if (scalar !== 0n) return toBytes32(scalar);
  }
}

function lamportChunkHashes(ikm: Uint8Array, salt: Uint8Array, out: Buffer, offset: number): void {
  const okm = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.alloc(0), LAMPORT_CHUNKS * LAMPORT_CHUNK_LENGTH));
  for (let i = 0; i < LAMPORT_CHUNKS; i++) {
    const chunk = okm.subarray(i * LAMPORT_CHUNK_LENGTH, (i + 1) * LAMPORT_CHUNK_LENGTH);
    createHash('sha256')
      .update(chunk)
      .digest()
      .copy(out, offset + i * LAMPORT_CHUNK_LENGTH);
  }
}

/** derive_child_SK(parent, index) of EIP-2333. `parentSecretKey` is 32 bytes big-endian. */
export function eip2333DeriveChild(parentSecretKey: Uint8Array, index: number): Buffer {
  if (parentSecretKey.length !== 32) throw new CryptoError('BLS parent secret key must be 32 bytes.');
  const salt = Buffer.alloc(4);
  salt.writeUInt32BE(index);
  const flipped = Buffer.from(parentSecretKey).map((byte) => byte ^ 0xff);
  const lamportPublicKey = Buffer.alloc(2 * LAMPORT_CHUNKS * LAMPORT_CHUNK_LENGTH);
  lamportChunkHashes(parentSecretKey, salt, lamportPublicKey, 0);
  lamportChunkHashes(flipped, salt, lamportPublicKey, LAMPORT_CHUNKS * LAMPORT_CHUNK_LENGTH);
  return blsKeyGen(createHash('sha256').update(lamportPublicKey).digest());
}

/** derive_master_SK(seed) of EIP-2333 (= KeyGen(seed)). */
export function eip2333DeriveMaster(seed: Uint8Array): Buffer {
  return blsKeyGen(seed);
}

/** The BLS secret key at `path` below a BIP-39 seed. */
export function blsSecretKeyFromBip39Seed(bip39Seed: Uint8Array, path: string): Buffer {
  let key = eip2333DeriveMaster(bip39Seed);
  for (const index of parseDerivationPath(path)) key = eip2333DeriveChild(key, index);
  return key;
}

/** The BLS secret key at `path` for a passphrase (SDK `bls.getPrivateKeyFromPhraseAndPath`). */
export function blsSecretKeyFromPassphrase(passphrase: string, path: string): Buffer {
  return blsSecretKeyFromBip39Seed(mnemonicToSeed(passphrase), path);
}
