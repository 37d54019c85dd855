/**
 * The worker pool with real threads and real libsodium signatures: the pool verifier answers
 * exactly as the main-thread verifier on random sets with bad signatures at random places.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keyPairFromSeed,
  MainThreadSignatureVerifier,
  signDigest,
  VerifiedSignatureSet,
  type Ed25519Check,
} from '../../../src/crypto/index.js';
import { PoolSignatureVerifier, WorkerPool, WorkerPoolError } from '../../../src/workers/index.js';

function validCheck(): Ed25519Check {
  const { publicKey, privateKey } = keyPairFromSeed(randomBytes(32));
  const digest = randomBytes(32);
  return { digest, signature: signDigest(digest, privateKey), publicKey };
}

/** Ways a check goes bad: a flipped bit in any field, a wrong length, a key of someone else. */
function spoil(check: Ed25519Check, how: number): Ed25519Check {
  const flip = (bytes: Uint8Array): Buffer => {
    const copy = Buffer.from(bytes);
    copy[Math.floor(Math.random() * copy.length)] ^= 1 << Math.floor(Math.random() * 8);
    return copy;
  };
  switch (how % 4) {
    case 0:
      return { ...check, signature: flip(check.signature) };
    case 1:
      return { ...check, digest: flip(check.digest) };
    case 2:
      return { ...check, signature: check.signature.subarray(0, 63) };
    default:
      return { ...check, publicKey: validCheck().publicKey };
  }
}

describe('PoolSignatureVerifier (2 real worker threads)', () => {
  let pool: WorkerPool;
  const mainThread = new MainThreadSignatureVerifier();

  beforeAll(() => {
    pool = new WorkerPool({ threads: 2 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('answers as the main thread on random sets, finding exactly the bad checks', async () => {
    const verifier = new PoolSignatureVerifier(pool, { batchSize: 32 });
    const valid = Array.from({ length: 120 }, validCheck);
    for (const size of [0, 1, 15, 16, 17, 64, 100, 120]) {
      const bad = new Set(Array.from({ length: Math.floor(size / 7) }, () => Math.floor(Math.random() * size)));
      const checks = valid.slice(0, size).map((check, i) => (bad.has(i) ? spoil(check, i) : check));
      const answers = await verifier.verifyEd25519(checks);
      expect(answers, `set of ${size}`).toEqual(await mainThread.verifyEd25519(checks));
      expect(
        answers.flatMap((ok, i) => (ok ? [] : [i])),
        `set of ${size}`,
      ).toEqual([...bad].sort((a, b) => a - b));
    }
  });

  it('runs a packed batch in a thread and refuses a malformed one with a clear error', async () => {
    const checks = [validCheck(), validCheck()];
    const digests = Buffer.concat(checks.map((check) => check.digest));
    const signatures = Buffer.concat(checks.map((check) => check.signature));
    const publicKeys = Buffer.concat(checks.map((check) => check.publicKey));
    expect([
      ...(await pool.run<Uint8Array>('ed25519.verifyBatch', { count: 2, digests, signatures, publicKeys }, { priority: 'consensus' })),
    ]).toEqual([1, 1]);
    await expect(pool.run('ed25519.verifyBatch', { count: 3, digests, signatures, publicKeys }, { priority: 'consensus' })).rejects.toThrow(
      'fields of the wrong length',
    );
    await expect(pool.run('no.such.task', {}, { priority: 'consensus' })).rejects.toThrow('Unknown worker task "no.such.task"');
  });

  it('falls back to the calling thread when the pool cannot run the set', async () => {
    const closedPool = new WorkerPool({ threads: 1 });
    await closedPool.close();
    await expect(closedPool.run('ed25519.verifyBatch', {}, { priority: 'consensus' })).rejects.toBeInstanceOf(WorkerPoolError);
    const checks = Array.from({ length: 40 }, validCheck);
    checks[7] = spoil(checks[7] as Ed25519Check, 0);
    const answers = await new PoolSignatureVerifier(closedPool).verifyEd25519(checks);
    expect(answers.filter((ok) => !ok)).toHaveLength(1);
    expect(answers[7]).toBe(false);
  });

  it('remembers what verified, byte for byte', async () => {
    const checks = [validCheck(), spoil(validCheck(), 0)];
    const verified = VerifiedSignatureSet.fromAnswers(checks, await mainThread.verifyEd25519(checks));
    expect(verified.size).toBe(1);
    expect(verified.has(checks[0] as Ed25519Check)).toBe(true);
    expect(verified.has(checks[1] as Ed25519Check)).toBe(false);
    expect(verified.has(spoil(checks[0] as Ed25519Check, 1))).toBe(false);
  });
});
