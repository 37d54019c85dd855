/**
 * Batched BLS checks (one multi-pairing, bisection on failure) answer exactly as the one-check
 * functions of bls.ts, whatever the bad checks are and wherever they sit.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  aggregateSignatures,
  blsPublicKeyFromSecretKey,
  blsSign,
  verifyBlsCheck,
  verifyBlsChecks,
  verifyWeightedAggSig,
  weightedAggSigCheck,
  createAggSig,
  signBLS,
  type BlsCheck,
} from '../../../src/crypto/index.js';
import { blsTestChecks, spoilBlsCheck } from './bls-test-checks.js';

describe('verifyBlsChecks', () => {
  it('answers as verifyBlsCheck on random sets with bad checks at random places', () => {
    const valid = blsTestChecks(24);
    for (const size of [0, 1, 2, 3, 8, 24]) {
      const bad = new Set(Array.from({ length: Math.floor(size / 4) + (size > 1 ? 1 : 0) }, () => Math.floor(Math.random() * size)));
      const checks = valid.slice(0, size).map((check, i) => (bad.has(i) ? spoilBlsCheck(check, i) : check));
      const answers = verifyBlsChecks(checks);
      expect(answers, `set of ${size}`).toEqual(checks.map(verifyBlsCheck));
      expect(
        answers.flatMap((ok, i) => (ok ? [] : [i])),
        `set of ${size}`,
      ).toEqual([...bad].sort((a, b) => a - b));
    }
  });

  it('keeps the one-check rules for keys a batch cannot take (identity, malformed, empty)', () => {
    const [check] = blsTestChecks(1) as [BlsCheck];
    const identity = Buffer.concat([Buffer.from([0xc0]), Buffer.alloc(47)]);
    const odd: BlsCheck[] = [
      check,
      // FastAggregateVerify sums the keys first: an identity key among them is harmless (bls.ts).
      { ...check, kind: 'fastAggregateVerify', publicKeys: [...check.publicKeys, identity] },
      { ...check, kind: 'verify', publicKeys: [identity] },
      { ...check, publicKeys: [] },
      { ...check, publicKeys: [randomBytes(48)] },
      { ...check, kind: 'verify', publicKeys: [...check.publicKeys, ...check.publicKeys] },
      { ...check, signature: randomBytes(95) },
    ];
    expect(verifyBlsChecks(odd)).toEqual(odd.map(verifyBlsCheck));
    expect(verifyBlsChecks(odd).slice(0, 3)).toEqual([true, true, false]);
  });

  it('builds the weighted aggregate check of a certificate as verifyWeightedAggSig decides', () => {
    const secretKeys = Array.from({ length: 10 }, () => randomBytes(32));
    const keys = secretKeys.map(blsPublicKeyFromSecretKey).sort(Buffer.compare);
    const byKey = new Map(secretKeys.map((sk) => [blsPublicKeyFromSecretKey(sk).toString('hex'), sk]));
    const chainID = Buffer.from('04000000', 'hex');
    const message = randomBytes(90);
    const signers = keys.slice(0, 7);
    const { aggregationBits, signature } = createAggSig(
      keys,
      signers.map((publicKey) => ({
        publicKey,
        signature: signBLS('LSK_CE_', chainID, message, byKey.get(publicKey.toString('hex')) as Buffer),
      })),
    );
    const weights = keys.map(() => 10n);
    for (const threshold of [70n, 71n]) {
      const check = weightedAggSigCheck(keys, aggregationBits, signature, 'LSK_CE_', chainID, message, weights, threshold);
      const verdict = verifyWeightedAggSig(keys, aggregationBits, signature, 'LSK_CE_', chainID, message, weights, threshold);
      expect(check !== undefined && verifyBlsCheck(check)).toBe(verdict);
      expect(verdict).toBe(threshold === 70n);
    }
    expect(aggregateSignatures([blsSign(secretKeys[0] as Buffer, message)])).toHaveLength(96);
  });
});
