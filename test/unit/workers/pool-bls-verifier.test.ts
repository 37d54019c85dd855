/**
 * BLS through real worker threads: the pool verifier answers as the main thread on random sets
 * with bad checks at random places (bisection in the workers finds exactly them), and aggregates
 * to the same bytes, refusing what the main thread refuses with the same error.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blsPublicKeyFromSecretKey, blsSign, MainThreadSignatureVerifier, verifyBlsCheck } from '../../../src/crypto/index.js';
import { CryptoError } from '../../../src/errors.js';
import { PoolSignatureVerifier, WorkerPool } from '../../../src/workers/index.js';
import { blsTestChecks, spoilBlsCheck } from '../crypto/bls-test-checks.js';

describe('PoolSignatureVerifier BLS (2 real worker threads)', () => {
  let pool: WorkerPool;
  let verifier: PoolSignatureVerifier;
  const mainThread = new MainThreadSignatureVerifier();

  beforeAll(() => {
    pool = new WorkerPool({ threads: 2 });
    verifier = new PoolSignatureVerifier(pool);
  });
  afterAll(async () => {
    await pool.close();
  });

  it('answers as the main thread on random sets, finding exactly the bad checks', async () => {
    const valid = blsTestChecks(40);
    for (const size of [0, 1, 2, 5, 17, 40]) {
      const bad = new Set(Array.from({ length: Math.floor(size / 5) + (size > 0 ? 1 : 0) }, () => Math.floor(Math.random() * size)));
      const checks = valid.slice(0, size).map((check, i) => (bad.has(i) ? spoilBlsCheck(check, i) : check));
      const answers = await verifier.verifyBls(checks);
      expect(answers, `set of ${size}`).toEqual(checks.map(verifyBlsCheck));
      expect(answers, `set of ${size}`).toEqual(await mainThread.verifyBls(checks));
      expect(
        answers.flatMap((ok, i) => (ok ? [] : [i])),
        `set of ${size}`,
      ).toEqual([...bad].sort((a, b) => a - b));
    }
  });

  it('takes keys sliced from a larger buffer, as decoded blocks hold them', async () => {
    const [check] = blsTestChecks(2).slice(1);
    const block = Buffer.concat([randomBytes(1000), ...check!.publicKeys, randomBytes(1000)]);
    const publicKeys = check!.publicKeys.map((_, i) => block.subarray(1000 + 48 * i, 1048 + 48 * i));
    expect(
      await verifier.verifyBls([
        { ...check!, publicKeys },
        { ...check!, publicKeys: publicKeys.slice(1) },
      ]),
    ).toEqual([true, false]);
  });

  it('aggregates as the main thread, and refuses as it does', async () => {
    const message = randomBytes(32);
    const signatures = Array.from({ length: 70 }, () => blsSign(randomBytes(32), message));
    expect((await verifier.aggregateBlsSignatures(signatures)).equals(await mainThread.aggregateBlsSignatures(signatures))).toBe(true);
    await expect(verifier.aggregateBlsSignatures([])).rejects.toThrow(CryptoError);
    // Random bytes are no malformed signature: about 1 in 100 decode to a curve point (measured).
    // A compressed encoding without the compression flag never does.
    await expect(verifier.aggregateBlsSignatures([signatures[0]!, Buffer.alloc(96, 0x11)])).rejects.toThrow('malformed BLS signature');
    expect(blsPublicKeyFromSecretKey(randomBytes(32))).toHaveLength(48);
  });
});
