import { Signature } from '@chainsafe/blst';
import { describe, expect, it } from 'vitest';
import {
  BlsPublicKeyCache,
  aggregateSignatures,
  blsKeyValidate,
  blsPublicKeyFromSecretKey,
  blsSign,
  blsVerify,
  createAggSig,
  fastAggregateVerify,
  isKeySelected,
  isValidAggregationBits,
  popProve,
  popVerify,
  signBLS,
  verifyAggSig,
  verifyBLS,
  verifyWeightedAggSig,
} from '../../../src/crypto/index.js';
import { g2AffineToUncompressed, g2IsOnCurve, g2Multiply, g2ToAffine } from '../../../src/crypto/bls12-381/g2.js';
import { H_EFF, clearCofactorG2, hashToFieldFp2, hashToG2, isoMap, mapToIsoCurve } from '../../../src/crypto/bls12-381/hash-to-g2.js';
import { CryptoError } from '../../../src/errors.js';

const h = (value: string) => Buffer.from(value, 'hex');

// LIP 0062 appendix
const SK = h('263dbd792f5b1be47ed85f8938c0f29586af0d3ac7b977f21c278fe1462040e3');
const PK = h('a491d1b0ecd9bb917989f0e74f0dea0422eac4a873e5e2644f368dffb9a6e20fd6e10c1b77654d067c0618f6e5a7f79a');
const LIP_SIGNATURE = h(
  '80c3da661b5bb80bb841367255f7b087b969c075661895b7ac8b74b72360be54693b3485eff7d816924517a21ef1c3a30a8f9402572d5a63a7ff2f71ca6929a8c3d7f75fd72edd1aa478ecc09966a133e829600f0111a1e40bbe35db61e8c689',
);
const CHAIN_ID = h('00000000');
const MESSAGE = h('beaf');
const LIP_KEYS = [
  '9998f02d85e3851a430333350ed6cc1c0afbd72ee52cf8ad2f23d394f3937bfdc92e056dce713b9d45dac7b106d82883',
  'a491d1b0ecd9bb917989f0e74f0dea0422eac4a873e5e2644f368dffb9a6e20fd6e10c1b77654d067c0618f6e5a7f79a',
  '8f116ba0b305fb734405dd0968e255ad06a34d0cacfeece4c320502824da4a2ff90a978bfcffa1206ecae27f62bac645',
  'b301803f8b5ac4a1133581fc676dfedc60d891dd5fa99028805e5ea5b08d3491af75d0707adab3b70c6a6a580217bf81',
  'b53d21a4cfd562c469cc81514d4ce5a6b577d8403d32a394dc265dd190b47fa9f829fdd7963afdf972e5e77854051f6f',
  'a6b6a639f7fa0b64ad3a93be965e9cc34e1d9d0f0427c14c38fc80934a937c5fa745a3cb285f64d4d1c06d0825504488',
  'a4aa20eedb651b7855ee38ce16f59a263346fc383dd9603ac219aaed166ebfe09d460ebbbb7ea89e71c70d48e06efd1a',
  '95324a8c4a890e8c1e83c96c6c639254937c9c9cee789556606744b07e98292e292c8c150efd9506b0b5547fea3fdf9f',
  'a424801164381bbfc0b20c1807ce43a12bb012e47deb11b2a3a273dd82ca9fa6364e2f2b8d6c89bc576da89a04d5118f',
].map(h);
const LIP_AGG_SIGNATURE = h(
  'b379644423397a99dedea08df6698ef15cb170a93d16ba3d96dbf65ae54b397362333561487b22a105e7e0d471802d5600391d8097154bd86656d323cb62975d0b768c8bec9b1193b482e0210d55dd81a5c36ae1595f3b98f72e66f0d71ffef4',
);

const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const scalarBytes = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
const ZERO_KEY = Buffer.alloc(48);

/** n distinct test secret keys 1000·i + 7 (valid scalars). */
function secretKeys(n: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => scalarBytes(BigInt(1000 * i + 7)));
}

describe('BLS keys and signatures (LIP 0038 / 0062)', () => {
  it('reproduces the LIP 0062 signBLS / verifyBLS vector', () => {
    expect(blsPublicKeyFromSecretKey(SK).equals(PK)).toBe(true);
    expect(signBLS('LSK_TX_', CHAIN_ID, MESSAGE, SK).equals(LIP_SIGNATURE)).toBe(true);
    expect(verifyBLS('LSK_TX_', CHAIN_ID, MESSAGE, LIP_SIGNATURE, PK)).toBe(true);
    expect(verifyBLS('LSK_BH_', CHAIN_ID, MESSAGE, LIP_SIGNATURE, PK)).toBe(false);
    expect(verifyBLS('LSK_TX_', h('01000000'), MESSAGE, LIP_SIGNATURE, PK)).toBe(false);
  });

  it('reproduces the LIP 0062 verifyAggSig vector (bits 4001 select keys 6 and 8)', () => {
    const bits = h('4001');
    expect(LIP_KEYS.map((_, i) => isKeySelected(bits, i))).toEqual([false, false, false, false, false, false, true, false, true]);
    expect(verifyAggSig(LIP_KEYS, bits, LIP_AGG_SIGNATURE, 'LSK_CE_', CHAIN_ID, MESSAGE)).toBe(true);
    expect(verifyAggSig(LIP_KEYS, h('4000'), LIP_AGG_SIGNATURE, 'LSK_CE_', CHAIN_ID, MESSAGE)).toBe(false);
  });

  it('refuses the secret keys 0, r and 2r and wrong lengths with CryptoError', () => {
    for (const bad of [Buffer.alloc(32), scalarBytes(R), scalarBytes(2n * R), Buffer.alloc(31, 1), Buffer.alloc(33, 1)]) {
      expect(() => blsSign(bad, MESSAGE)).toThrow(CryptoError);
      expect(() => blsPublicKeyFromSecretKey(bad)).toThrow(CryptoError);
      expect(() => popProve(bad)).toThrow(CryptoError);
    }
  });

  it('reduces other keys ≥ r mod r, as the SDK (blst 0.2) did', () => {
    const big = scalarBytes(R + 5n);
    expect(blsSign(big, MESSAGE).equals(blsSign(scalarBytes(5n), MESSAGE))).toBe(true);
    expect(blsPublicKeyFromSecretKey(big).equals(blsPublicKeyFromSecretKey(scalarBytes(5n)))).toBe(true);
  });

  it('returns false, never throws, for malformed keys and signatures', () => {
    const signature = blsSign(SK, MESSAGE);
    expect(blsVerify(PK, MESSAGE, signature)).toBe(true);
    for (const key of [ZERO_KEY, PK.subarray(0, 47), Buffer.concat([PK, Buffer.of(0)]), Buffer.alloc(0)]) {
      expect(blsVerify(key, MESSAGE, signature)).toBe(false);
      expect(fastAggregateVerify([key], MESSAGE, signature)).toBe(false);
      expect(blsKeyValidate(key)).toBe(false);
      expect(popVerify(key, popProve(SK))).toBe(false);
    }
    for (const sig of [Buffer.alloc(96), signature.subarray(0, 95), Buffer.concat([signature, Buffer.of(0)]), Buffer.alloc(0)]) {
      expect(blsVerify(PK, MESSAGE, sig)).toBe(false);
      expect(fastAggregateVerify([PK], MESSAGE, sig)).toBe(false);
      expect(popVerify(PK, sig)).toBe(false);
    }
    expect(fastAggregateVerify([], MESSAGE, signature)).toBe(false);
  });

  it('the all-zero 48-byte key (migration placeholder) always fails', () => {
    const keys = [PK, ZERO_KEY];
    const signature = blsSign(SK, MESSAGE);
    expect(fastAggregateVerify(keys, MESSAGE, signature)).toBe(false);
    expect(verifyAggSig(keys, h('03'), signature, 'LSK_CE_', CHAIN_ID, MESSAGE)).toBe(false);
  });

  it('aggregates and fast-aggregate-verifies', () => {
    const sks = secretKeys(5);
    const pks = sks.map(blsPublicKeyFromSecretKey);
    const aggregate = aggregateSignatures(sks.map((sk) => blsSign(sk, MESSAGE)));
    expect(fastAggregateVerify(pks, MESSAGE, aggregate)).toBe(true);
    expect(fastAggregateVerify(pks.slice(1), MESSAGE, aggregate)).toBe(false);
    expect(() => aggregateSignatures([])).toThrow(CryptoError);
    expect(() => aggregateSignatures([Buffer.alloc(96)])).toThrow(CryptoError);
  });
});

describe('proof of possession', () => {
  it('proves and verifies, and rejects a proof for another key', () => {
    const [a, b] = secretKeys(2);
    const proofA = popProve(a!);
    expect(popVerify(blsPublicKeyFromSecretKey(a!), proofA)).toBe(true);
    expect(popVerify(blsPublicKeyFromSecretKey(b!), proofA)).toBe(false);
    // a signature under the signature DST is not a proof of possession
    const pkA = blsPublicKeyFromSecretKey(a!);
    expect(popVerify(pkA, blsSign(a!, pkA))).toBe(false);
  });

  it('hash-to-G2 in TypeScript matches blst for the signature DST', () => {
    const dst = Buffer.from('BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_');
    for (const message of [Buffer.alloc(0), MESSAGE, Buffer.alloc(100, 7)]) {
      const point = g2ToAffine(g2Multiply(hashToG2(message, dst), BigInt(`0x${SK.toString('hex')}`)))!;
      const ours = Buffer.from(g2AffineToUncompressed(point));
      // blst's uncompressed encoding of its own signature
      const theirs = Buffer.from(Signature.fromBytes(blsSign(SK, message)).toBytes(false));
      expect(ours.equals(theirs)).toBe(true);
    }
  });
});

describe('BLS12-381 helpers for the PoP DST', () => {
  it('clears the cofactor with ψ exactly as multiplying by h_eff does', () => {
    for (const message of [Buffer.from('a'), Buffer.from('b')]) {
      const [u0] = hashToFieldFp2(message, Buffer.from('TEST-DST'));
      const point = isoMap(mapToIsoCurve(u0));
      expect(g2IsOnCurve(g2ToAffine(point)!)).toBe(true);
      const fast = g2ToAffine(clearCofactorG2(point))!;
      const slow = g2ToAffine(g2Multiply(point, H_EFF))!;
      expect(fast).toEqual(slow);
    }
  });
});

describe('aggregation bits (LIP 0062)', () => {
  const sks = secretKeys(10);
  const pks = sks.map(blsPublicKeyFromSecretKey);
  const tagged = (sk: Buffer) => signBLS('LSK_CE_', CHAIN_ID, MESSAGE, sk);

  it('createAggSig sets bits LSB first: indices {0, 7, 9} of 10 keys → 8102', () => {
    const { aggregationBits, signature } = createAggSig(
      pks,
      [0, 7, 9].map((i) => ({ publicKey: pks[i]!, signature: tagged(sks[i]!) })),
    );
    expect(aggregationBits.toString('hex')).toBe('8102');
    expect(verifyAggSig(pks, aggregationBits, signature, 'LSK_CE_', CHAIN_ID, MESSAGE)).toBe(true);
  });

  it('rejects a bitmap of the wrong length or with bits ≥ n', () => {
    const { aggregationBits, signature } = createAggSig(pks, [{ publicKey: pks[1]!, signature: tagged(sks[1]!) }]);
    expect(aggregationBits.toString('hex')).toBe('0200');
    expect(isValidAggregationBits(10, h('0200'))).toBe(true);
    expect(isValidAggregationBits(10, h('02'))).toBe(false);
    expect(isValidAggregationBits(10, h('020000'))).toBe(false);
    expect(isValidAggregationBits(10, h('0204'))).toBe(false); // bit 10
    expect(isValidAggregationBits(10, h('0280'))).toBe(false); // bit 15
    expect(isValidAggregationBits(8, h('ff'))).toBe(true);
    expect(isValidAggregationBits(0, h(''))).toBe(true);
    expect(verifyAggSig(pks, h('02'), signature, 'LSK_CE_', CHAIN_ID, MESSAGE)).toBe(false);
    expect(verifyAggSig(pks, h('020000'), signature, 'LSK_CE_', CHAIN_ID, MESSAGE)).toBe(false);
    expect(verifyAggSig(pks, h('0204'), signature, 'LSK_CE_', CHAIN_ID, MESSAGE)).toBe(false);
    const weights = pks.map(() => 1n);
    expect(verifyWeightedAggSig(pks, h('0204'), signature, 'LSK_CE_', CHAIN_ID, MESSAGE, weights, 0n)).toBe(false);
  });

  it('verifyWeightedAggSig needs the selected weight to reach the threshold', () => {
    const signers = [2, 3];
    const { aggregationBits, signature } = createAggSig(
      pks,
      signers.map((i) => ({ publicKey: pks[i]!, signature: tagged(sks[i]!) })),
    );
    const weights = pks.map((_, i) => BigInt(10 * i));
    const verify = (threshold: bigint) =>
      verifyWeightedAggSig(pks, aggregationBits, signature, 'LSK_CE_', CHAIN_ID, MESSAGE, weights, threshold);
    expect(verify(50n)).toBe(true);
    expect(verify(51n)).toBe(false);
    expect(verifyWeightedAggSig(pks, aggregationBits, signature, 'LSK_CE_', CHAIN_ID, MESSAGE, weights.slice(1), 0n)).toBe(false);
  });

  it('createAggSig refuses a signer outside the key list', () => {
    const outsider = scalarBytes(424242n);
    expect(() => createAggSig(pks, [{ publicKey: blsPublicKeyFromSecretKey(outsider), signature: tagged(outsider) }])).toThrow(CryptoError);
  });
});

describe('BlsPublicKeyCache', () => {
  it('stays within its capacity and still answers for evicted keys', () => {
    const cache = new BlsPublicKeyCache(3);
    const pks = secretKeys(5).map(blsPublicKeyFromSecretKey);
    for (const pk of pks) expect(cache.get(pk)).toBeDefined();
    expect(cache.size).toBe(3);
    expect(Buffer.from(cache.get(pks[0]!)!.toBytes(true)).equals(pks[0]!)).toBe(true);
    expect(cache.get(ZERO_KEY)).toBeUndefined();
    expect(cache.size).toBe(3);
  });

  it('separates decoding from KeyValidate (identity decodes but does not validate)', () => {
    const cache = new BlsPublicKeyCache();
    const identity = Buffer.alloc(48);
    identity[0] = 0xc0;
    expect(cache.get(identity)).toBeDefined();
    expect(cache.getValidated(identity)).toBeUndefined();
    expect(cache.getValidated(PK)).toBeDefined();
  });
});
