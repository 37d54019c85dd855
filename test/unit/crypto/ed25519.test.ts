import { describe, expect, it } from 'vitest';
import {
  keyPairFromSeed,
  publicKeyFromPrivateKey,
  sha256,
  signData,
  signDigest,
  verifyData,
  verifyDigest,
} from '../../../src/crypto/index.js';
import { CryptoError } from '../../../src/errors.js';

const SEED = Buffer.from('c465dfb15018d3aef0d94d411df048e240e87a3ec9cd6d422cea903bfc101f61', 'hex');
const PUBLIC_KEY = 'c6bae83af23540096ac58d5121b00f33be6f02f05df785766725acdd5d48be9d';

describe('ed25519', () => {
  const pair = keyPairFromSeed(SEED);
  const digest = sha256(Buffer.from('message'));
  const signature = signDigest(digest, pair.privateKey);

  it('derives the key pair of a seed (LIP 0066 vector)', () => {
    expect(pair.publicKey.toString('hex')).toBe(PUBLIC_KEY);
    expect(pair.privateKey.toString('hex')).toBe(SEED.toString('hex') + PUBLIC_KEY);
    expect(publicKeyFromPrivateKey(pair.privateKey).toString('hex')).toBe(PUBLIC_KEY);
    expect(publicKeyFromPrivateKey(SEED).toString('hex')).toBe(PUBLIC_KEY);
  });

  it('signs the same with the 64-byte key and the seed, and verifies', () => {
    expect(signature).toHaveLength(64);
    expect(signDigest(digest, SEED).equals(signature)).toBe(true);
    expect(verifyDigest(digest, signature, pair.publicKey)).toBe(true);
    const tampered = Buffer.from(signature);
    tampered[10]! ^= 1;
    expect(verifyDigest(digest, tampered, pair.publicKey)).toBe(false);
  });

  it('returns false, never throws, for wrong signature or key lengths', () => {
    expect(verifyDigest(digest, signature.subarray(0, 63), pair.publicKey)).toBe(false);
    expect(verifyDigest(digest, Buffer.concat([signature, Buffer.of(0)]), pair.publicKey)).toBe(false);
    expect(verifyDigest(digest, Buffer.alloc(0), pair.publicKey)).toBe(false);
    expect(verifyDigest(digest, signature, pair.publicKey.subarray(0, 31))).toBe(false);
    expect(verifyDigest(digest, signature, Buffer.concat([pair.publicKey, Buffer.of(0)]))).toBe(false);
    expect(verifyDigest(digest, signature, Buffer.alloc(0))).toBe(false);
    expect(verifyData('LSK_TX_', Buffer.alloc(4), Buffer.alloc(1), Buffer.alloc(3), Buffer.alloc(5))).toBe(false);
  });

  it('rejects a non-canonical S and the identity key (libsodium strictness)', () => {
    // S + L: same curve equation, different encoding: libsodium refuses it.
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    const s = BigInt(`0x${Buffer.from(signature.subarray(32)).reverse().toString('hex')}`);
    const sPlusL = Buffer.from((s + L).toString(16).padStart(64, '0'), 'hex').reverse();
    expect(verifyDigest(digest, Buffer.concat([signature.subarray(0, 32), sPlusL]), pair.publicKey)).toBe(false);
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    const identitySignature = Buffer.concat([identity, Buffer.alloc(32)]);
    expect(verifyDigest(digest, identitySignature, identity)).toBe(false);
  });

  it('binds tag and chain ID', () => {
    const chainID = Buffer.from('04000000', 'hex');
    const data = Buffer.from('beaf', 'hex');
    const tagged = signData('LSK_TX_', chainID, data, pair.privateKey);
    expect(verifyData('LSK_TX_', chainID, data, tagged, pair.publicKey)).toBe(true);
    expect(verifyData('LSK_BH_', chainID, data, tagged, pair.publicKey)).toBe(false);
    expect(verifyData('LSK_TX_', Buffer.from('04000001', 'hex'), data, tagged, pair.publicKey)).toBe(false);
  });

  it('throws CryptoError for keys of the wrong length when signing', () => {
    expect(() => keyPairFromSeed(Buffer.alloc(31))).toThrow(CryptoError);
    expect(() => signDigest(digest, Buffer.alloc(63))).toThrow(CryptoError);
    expect(() => publicKeyFromPrivateKey(Buffer.alloc(16))).toThrow(CryptoError);
  });
});
