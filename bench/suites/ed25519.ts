/**
 * Ed25519 verification on the main thread, of a real transaction signature (LSK_TX_ tag, dev
 * chain ID): Basalt's verifyData (libsodium, strict checks) against node:crypto `verify` with
 * a KeyObject imported once beforehand (its fastest use). Both hash the tagged message first,
 * so both rows measure the same job. Then the worker pool: its throughput on large sets, and
 * the latency of a block's signature batch while a flood of transaction-pool checks fills the
 * queue, with the block's checks in the consensus class (the node's way) against the same
 * class as the flood (a plain FIFO, as the pool was before it had classes).
 */
import { createHash, createPublicKey, verify as nodeVerify } from 'node:crypto';
import { MESSAGE_TAG_TRANSACTION, signDigest, taggedDigest, verifyData } from '../../src/crypto/index.js';
import type { Ed25519Check } from '../../src/crypto/signature-verifier.js';
import { offThreadWork } from '../../src/node.js';
import { PoolSignatureVerifier, WorkerPool } from '../../src/workers/index.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { DEV_CONFIG_FILE } from '../lib/dev-chain.js';
import type { Measurement } from '../lib/figure.js';
import { interleavedMsPerOp } from '../lib/measure.js';
import { PoolCounters } from '../lib/pool-counters.js';
import type { Suite } from '../lib/suite.js';
import { benchKeyPair, signedTransfer } from '../lib/transfer-block.js';

export const ed25519Suite: Suite = {
  name: 'ed25519',
  summary: 'libsodium verifyData, one thread and through the worker pool, vs node:crypto verify (pre-imported KeyObject), one thread',
  async run(progress, options) {
    progress('ed25519: verify');
    const { chainID } = loadChainConfig(DEV_CONFIG_FILE).genesis;
    const sender = benchKeyPair('ed25519-sender');
    const tx = signedTransfer(sender, 7n, Buffer.alloc(20, 1), 1n, { chainID, tokenID: Buffer.concat([chainID, Buffer.alloc(4)]) });
    const message = tx.signingBytes();
    const [signature] = tx.signatures;
    if (signature === undefined) throw new Error('The transfer has no signature.');
    const keyObject = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: sender.publicKey.toString('base64url') },
      format: 'jwk',
    });
    const ours = () => verifyData(MESSAGE_TAG_TRANSACTION, chainID, message, signature, sender.publicKey);
    const node = () => nodeVerify(null, taggedDigest(MESSAGE_TAG_TRANSACTION, chainID, message), keyObject, signature);
    if (!ours() || !node()) throw new Error('The benchmark signature does not verify.');

    const baseline = 'ed25519 verify node:crypto (KeyObject)';
    const [libsodium, nodeCrypto] = await interleavedMsPerOp([
      { name: 'libsodium', fn: ours },
      { name: 'node:crypto', fn: node },
    ]);
    progress('ed25519: worker pool');
    const pooled = await poolMicrosPerSignature();
    progress("ed25519: a block's signatures under a txpool flood, with and without queue classes");
    const flood = await blockLatencyUnderFlood(options.quick ? 3 : 9);
    const poolName = `ed25519 verify, worker pool (${pooled.threads} threads, sets of ${POOL_SET})`;
    const results: Measurement[] = [
      { name: 'ed25519 verifyData libsodium', value: libsodium! * 1000, unit: 'µs/op', baseline },
      { name: poolName, value: pooled.micros, unit: 'µs/op', baseline },
      ...pooled.counters.rows(poolName),
      { name: baseline, value: nodeCrypto! * 1000, unit: 'µs/op' },
      { name: flood.withClasses, value: flood.withClassesMs, unit: 'ms', baseline: flood.fifo },
      ...flood.counters.rows(flood.withClasses),
      { name: flood.fifo, value: flood.fifoMs, unit: 'ms' },
    ];
    return results;
  },
};

/** Signatures per set handed to the pool: about one full block of transfers, or a pool re-check. */
const POOL_SET = 1024;

/**
 * Throughput of the node's PoolSignatureVerifier: wall time per signature over sets of POOL_SET
 * distinct signatures, after the threads have started.
 */
async function poolMicrosPerSignature(): Promise<{ micros: number; threads: number; counters: PoolCounters }> {
  const checks = distinctChecks(POOL_SET, 'ed25519-pool');
  const pool = new WorkerPool();
  try {
    // The verifier the node holds, with the node's settings.
    const { signatureVerifier: verifier } = offThreadWork(pool);
    for (let i = 0; i < 3; i += 1) await verifier.verifyEd25519(checks);
    const rounds = 20;
    const counters = new PoolCounters(pool);
    const start = performance.now();
    for (let i = 0; i < rounds; i += 1) {
      const answers = await verifier.verifyEd25519(checks);
      if (answers.some((ok) => !ok)) throw new Error('A pooled benchmark signature does not verify.');
    }
    const micros = ((performance.now() - start) * 1000) / (rounds * POOL_SET);
    counters.stop();
    return { micros, threads: pool.threads, counters };
  } finally {
    await pool.close();
  }
}

/** `count` checks with distinct digests (keys repeat every 64, as senders do in a block). */
function distinctChecks(count: number, seed: string): Ed25519Check[] {
  return Array.from({ length: count }, (_, i) => {
    const { publicKey, privateKey } = benchKeyPair(`${seed}-${i % 64}`);
    const digest = createHash('sha256').update(`${seed} message ${i}`).digest();
    return { digest, signature: signDigest(digest, privateKey), publicKey };
  });
}

/** Transactions in a full transfer block of the dev chain (bench/suites/block-apply.ts). */
const BLOCK_SIGNATURES = 95;
/** Sets of POOL_SET the flood posts at once: some half a second of work for two threads. */
const FLOOD_SETS = 8;

/**
 * Median wall time of one block's signature batch sent while FLOOD_SETS sets of transaction-pool
 * checks wait in the queue: through the node's block verifier (consensus class) and through a
 * verifier in the flood's own class, which waits for the whole flood, as every task did when the
 * queue was one FIFO. The two are measured in alternate rounds, so both meet the same machine.
 */
async function blockLatencyUnderFlood(rounds: number) {
  const block = distinctChecks(BLOCK_SIGNATURES, 'ed25519-block');
  const floodSet = distinctChecks(POOL_SET, 'ed25519-flood');
  const pool = new WorkerPool();
  const label = `ed25519 block signature batch latency (${BLOCK_SIGNATURES} checks) under a txpool flood (${FLOOD_SETS} × ${POOL_SET} queued), worker pool (${pool.threads} threads)`;
  try {
    const { signatureVerifier: consensus, transactionSignatureVerifier: txpool } = offThreadWork(pool);
    const fifo = new PoolSignatureVerifier(pool, { priority: 'reads' });
    const latency = async (verifier: PoolSignatureVerifier | typeof consensus): Promise<number> => {
      const flooding = Promise.all(Array.from({ length: FLOOD_SETS }, () => txpool.verifyEd25519(floodSet)));
      const start = performance.now();
      const answers = await verifier.verifyEd25519(block);
      const ms = performance.now() - start;
      if (answers.some((ok) => !ok)) throw new Error('A benchmark block signature does not verify.');
      await flooding;
      return ms;
    };
    // Threads started and warm.
    await latency(consensus);
    const withClasses: number[] = [];
    const plain: number[] = [];
    let counters: PoolCounters | undefined;
    for (let round = 0; round < rounds; round += 1) {
      if (round === 0) counters = new PoolCounters(pool);
      withClasses.push(await latency(consensus));
      if (round === 0) counters?.stop();
      plain.push(await latency(fifo));
    }
    return {
      withClasses: `${label}, block checks in the consensus class`,
      withClassesMs: median(withClasses),
      fifo: `${label}, one FIFO for all tasks`,
      fifoMs: median(plain),
      counters: counters as PoolCounters,
    };
  } finally {
    await pool.close();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
