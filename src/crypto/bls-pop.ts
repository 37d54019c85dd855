/**
 * Proof of possession for BLS keys (LIP 0038; draft-irtf-cfrg-bls-signature-04 §3.3):
 * PopProve(sk) = sk · H_pop(pk) where H_pop is hash_to_curve on G2 with the DST
 * `BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_` and the message is the 48-byte compressed key.
 *
 * @chainsafe/blst 2.x only exposes the signature DST, so hashing to G2 and the pairing check
 * cannot go through blst. PopVerify runs in the native addon when it is loaded (Rust, about 2 ms:
 * native/src/bls12_381), and otherwise in the small bigint implementation of ./bls12-381 (tens
 * of milliseconds), where blst still does the encodings and group checks. Both give the same
 * answer on every input. popProve always uses the bigint code: a proof is made once per key.
 */
import { Signature, type PublicKey } from '@chainsafe/blst';
import { CryptoError } from '../errors.js';
import { NATIVE_POP_KEY_LENGTH, NATIVE_POP_PROOF_LENGTH, nativePopVerify } from '../native/bls-pop.js';
import { blsPublicKeyCache } from './bls-public-key-cache.js';
import { blsSecretScalar, toBlstSecretKey } from './bls-secret-key.js';
import { g1AffineFromUncompressed, g2AffineFromUncompressed, g2AffineToUncompressed, g2Multiply, g2ToAffine } from './bls12-381/g2.js';
import { hashToG2 } from './bls12-381/hash-to-g2.js';
import { pairingsAreEqual } from './bls12-381/pairing.js';

/** The DST of proofs of possession in the POP ciphersuite. */
export const BLS_POP_DST = Buffer.from('BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_', 'ascii');

const G1_GENERATOR = g1AffineFromUncompressed(
  Buffer.from(
    '17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb' +
      '08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1',
    'hex',
  ),
);

/** PopProve(sk): a 96-byte proof. Throws CryptoError for an invalid secret key (0, r, 2r, length). */
export function popProve(secretKey: Uint8Array): Buffer {
  const scalar = blsSecretScalar(secretKey);
  const publicKey = toBlstSecretKey(secretKey).toPublicKey().toBytes(true);
  const proof = g2ToAffine(g2Multiply(hashToG2(publicKey, BLS_POP_DST), scalar));
  if (proof === undefined) throw new CryptoError('Proof of possession is the identity.');
  // Let blst produce the canonical compressed encoding (and check the point on the way).
  return Buffer.from(Signature.fromBytes(g2AffineToUncompressed(proof), true).toBytes(true));
}

/**
 * PopVerify(pk, proof): KeyValidate(pk) first, then e(pk, H_pop(pk)) = e(g1, proof) with the
 * proof group-checked. Never throws. The addon takes the compressed encodings (all that Lisk
 * transactions carry); the rare uncompressed forms blst also decodes stay on the bigint path.
 */
export function popVerify(publicKey: Uint8Array, proof: Uint8Array): boolean {
  if (nativePopVerify !== undefined && publicKey.length === NATIVE_POP_KEY_LENGTH && proof.length === NATIVE_POP_PROOF_LENGTH) {
    return nativePopVerify(publicKey, proof);
  }
  return popVerifyBigint(publicKey, proof);
}

/** PopVerify on the bigint implementation with blst's decoding: the fallback without the addon. */
export function popVerifyBigint(publicKey: Uint8Array, proof: Uint8Array): boolean {
  const key: PublicKey | undefined = blsPublicKeyCache.getValidated(publicKey);
  if (key === undefined) return false;
  let proofPoint: Signature;
  try {
    proofPoint = Signature.fromBytes(proof, true);
  } catch {
    return false;
  }
  const hashed = g2ToAffine(hashToG2(publicKey, BLS_POP_DST));
  if (hashed === undefined) return false;
  return pairingsAreEqual(
    g1AffineFromUncompressed(key.toBytes(false)),
    hashed,
    G1_GENERATOR,
    g2AffineFromUncompressed(proofPoint.toBytes(false)),
  );
}
