/**
 * The cap on signature checks asked for ahead of need, with real threads and real libsodium
 * signatures: ahead checks never hold more threads than their cap, work needed now still finds a
 * free thread, and the answers are the main thread's.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyPairFromSeed, MainThreadSignatureVerifier, signDigest, type Ed25519Check } from '../../../src/crypto/index.js';
import { InFlightLimit } from '../../../src/workers/in-flight-limit.js';
import { PoolSignatureVerifier, WorkerPool } from '../../../src/workers/index.js';

const signer = keyPairFromSeed(randomBytes(32));

function validCheck(): Ed25519Check {
  const digest = randomBytes(32);
  return { digest, signature: signDigest(digest, signer.privateKey), publicKey: signer.publicKey };
}

/** The most pool threads seen busy, sampled on every turn of the event loop until `work` settles. */
async function peakBusyThreads<T>(pool: WorkerPool, work: Promise<T>): Promise<{ result: T; peak: number }> {
  let done = false;
  let peak = 0;
  const result = work.finally(() => {
    done = true;
  });
  while (!done) {
    peak = Math.max(peak, pool.busyThreads);
    await new Promise((resume) => setImmediate(resume));
  }
  return { result: await result, peak };
}

describe('InFlightLimit in front of a real pool (2 threads)', () => {
  let pool: WorkerPool;
  const checks = Array.from({ length: 640 }, validCheck);
  const mainThread = new MainThreadSignatureVerifier();

  beforeAll(async () => {
    pool = new WorkerPool({ threads: 2 });
    // Both threads started, so that a thread's start-up is not read as a cap.
    await Promise.all([0, 1].map(() => pool.run('ed25519.verifyBatch', packed(checks.slice(0, 64)), { priority: 'consensus' })));
  });
  afterAll(async () => {
    await pool.close();
  });

  it('runs checks asked ahead on at most aheadThreads threads, with the answers of the main thread', async () => {
    const verifier = new PoolSignatureVerifier(pool, { aheadThreads: 1 });
    const spoiled = checks.map((check, i) => (i % 97 === 5 ? { ...check, digest: randomBytes(32) } : check));
    const sent = pool.taskCounts.get('ed25519.verifyBatch') ?? 0;
    const { result, peak } = await peakBusyThreads(pool, verifier.verifyEd25519Ahead(spoiled));
    expect(result).toEqual(await mainThread.verifyEd25519(spoiled));
    expect(peak).toBe(1);
    // Split for one thread: batches of the full batch size (640 / 128), one after the other.
    expect((pool.taskCounts.get('ed25519.verifyBatch') ?? 0) - sent).toBe(5);
    // Checks needed now keep both threads.
    expect((await peakBusyThreads(pool, verifier.verifyEd25519(spoiled))).peak).toBe(2);
  });

  it('lets checks needed now overtake ahead checks still waiting for their turn', async () => {
    const verifier = new PoolSignatureVerifier(pool, { aheadThreads: 1 });
    const order: string[] = [];
    const ahead = verifier.verifyEd25519Ahead(checks).then(() => order.push('ahead'));
    const now = verifier.verifyEd25519(checks.slice(0, 64)).then(() => order.push('now'));
    await Promise.all([ahead, now]);
    expect(order).toEqual(['now', 'ahead']);
  });

  it('with no cap (aheadThreads = the pool threads) sends ahead checks as verifyEd25519 does', async () => {
    const verifier = new PoolSignatureVerifier(pool);
    const sent = pool.taskCounts.get('ed25519.verifyBatch') ?? 0;
    const { result, peak } = await peakBusyThreads(pool, verifier.verifyEd25519Ahead(checks));
    expect(result.every((ok) => ok)).toBe(true);
    expect(peak).toBe(2);
    expect((pool.taskCounts.get('ed25519.verifyBatch') ?? 0) - sent).toBe(5);
  });

  it('serves waiting calls first come, first served, and frees the slot of a call that failed', async () => {
    const limit = new InFlightLimit(1);
    const order: number[] = [];
    const runs = [0, 1, 2, 3].map((i) =>
      limit.run(async () => {
        order.push(i);
        if (i === 1) return pool.run('no.such.task', {}, { priority: 'consensus' });
        return pool.run<Uint8Array>('ed25519.verifyBatch', packed(checks.slice(0, 16)), { priority: 'consensus' });
      }),
    );
    expect(limit.inFlight).toBe(1);
    expect(limit.queued).toBe(3);
    const settled = await Promise.allSettled(runs);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(limit.highWater).toBe(1);
    expect([limit.inFlight, limit.queued]).toEqual([0, 0]);
  });

  it('refuses a limit below one', () => {
    expect(() => new InFlightLimit(0)).toThrow(RangeError);
  });
});

function packed(set: readonly Ed25519Check[]): { count: number; digests: Buffer; signatures: Buffer; publicKeys: Buffer } {
  return {
    count: set.length,
    digests: Buffer.concat(set.map((check) => check.digest)),
    signatures: Buffer.concat(set.map((check) => check.signature)),
    publicKeys: Buffer.concat(set.map((check) => check.publicKey)),
  };
}
