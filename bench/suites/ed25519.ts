/**
 * Ed25519 verification on the main thread, of a real transaction signature (LSK_TX_ tag, dev
 * chain ID): Basalt's verifyData (libsodium, strict checks) against node:crypto `verify` with
 * a KeyObject imported once beforehand (its fastest use). Both hash the tagged message first,
 * so both rows measure the same job.
 */
import { createHash, createPublicKey, verify as nodeVerify } from 'node:crypto';
import { MESSAGE_TAG_TRANSACTION, signDigest, taggedDigest, verifyData } from '../../src/crypto/index.js';
import { offThreadWork } from '../../src/node.js';
import { WorkerPool } from '../../src/workers/index.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { DEV_CONFIG_FILE } from '../lib/dev-chain.js';
import type { Measurement } from '../lib/figure.js';
import { interleavedMsPerOp } from '../lib/measure.js';
import type { Suite } from '../lib/suite.js';
import { benchKeyPair, signedTransfer } from '../lib/transfer-block.js';

export const ed25519Suite: Suite = {
  name: 'ed25519',
  summary: 'libsodium verifyData, one thread and through the worker pool, vs node:crypto verify (pre-imported KeyObject), one thread',
  async run(progress) {
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
    const results: Measurement[] = [
      { name: 'ed25519 verifyData libsodium', value: libsodium! * 1000, unit: 'µs/op', baseline },
      {
        name: `ed25519 verify, worker pool (${pooled.threads} threads, sets of ${POOL_SET})`,
        value: pooled.micros,
        unit: 'µs/op',
        baseline,
      },
      { name: baseline, value: nodeCrypto! * 1000, unit: 'µs/op' },
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
async function poolMicrosPerSignature(): Promise<{ micros: number; threads: number }> {
  const checks = Array.from({ length: POOL_SET }, (_, i) => {
    const { publicKey, privateKey } = benchKeyPair(`ed25519-pool-${i % 64}`);
    const digest = createHash('sha256').update(`message ${i}`).digest();
    return { digest, signature: signDigest(digest, privateKey), publicKey };
  });
  const pool = new WorkerPool();
  try {
    // The verifier the node holds, with the node's settings.
    const { signatureVerifier: verifier } = offThreadWork(pool);
    for (let i = 0; i < 3; i += 1) await verifier.verifyEd25519(checks);
    const rounds = 20;
    const start = performance.now();
    for (let i = 0; i < rounds; i += 1) {
      const answers = await verifier.verifyEd25519(checks);
      if (answers.some((ok) => !ok)) throw new Error('A pooled benchmark signature does not verify.');
    }
    return { micros: ((performance.now() - start) * 1000) / (rounds * POOL_SET), threads: pool.threads };
  } finally {
    await pool.close();
  }
}
