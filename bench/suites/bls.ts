/**
 * BLS (blst) on the jobs a Lisk node does: a certificate signed by all 101 active validators,
 * checked with FastAggregateVerify (warm public-key cache, as in a running node) against the
 * same check with the 101 keys deserialised on every call (what a cache-less node pays); the
 * full certificate check verifyWeightedAggSig (bitmap, weights, threshold, tagged digest); a
 * single-signature verify for scale; popVerify, run once per validator registration, in native
 * code against the bigint fallback, and as the node runs it (a batch in the worker pool, before the
 * block that registers the keys executes); and 16 certificates checked one by one against one
 * batched call on the worker pool.
 */
import { PublicKey as BlstPublicKey, Signature as BlstSignature, fastAggregateVerify as blstFastAggregateVerify } from '@chainsafe/blst';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import {
  MESSAGE_TAG_CERTIFICATE,
  blsPublicKeyFromSecretKey,
  createAggSig,
  fastAggregateVerify,
  popProve,
  popVerifyBigint,
  sha256,
  signBLS,
  taggedDigest,
  verifyBLS,
  verifyWeightedAggSig,
  verifyBlsCheck,
  type BlsCheck,
} from '../../src/crypto/index.js';
import { nativePopVerify } from '../../src/native/index.js';
import { offThreadWork } from '../../src/node.js';
import { WorkerPool } from '../../src/workers/index.js';
import { unsignedCertificateBytes } from '../../src/engine/consensus/aggregate-commit.js';
import { DEV_CONFIG_FILE, readDevBlocks } from '../lib/dev-chain.js';
import type { Measurement } from '../lib/figure.js';
import { interleavedMsPerOp, medianMsPerOp } from '../lib/measure.js';
import { PoolCounters } from '../lib/pool-counters.js';
import type { Suite } from '../lib/suite.js';

const VALIDATORS = 101;
/** Certificates checked at once, as a node catching up meets one per block. */
const POOL_CERTIFICATES = 16;
/** Proofs of possession in one pool call: a genesis block registers many, a busy block a few. */
const POP_BATCH = 8;

interface Validator {
  readonly secretKey: Buffer;
  readonly publicKey: Buffer;
}

function validators(): Validator[] {
  const list = Array.from({ length: VALIDATORS }, (_, i) => {
    const secretKey = sha256(Buffer.from(`basalt-bench:bls:${i}`));
    return { secretKey, publicKey: blsPublicKeyFromSecretKey(secretKey) };
  });
  // Certificates list the active validators by ascending BLS key.
  return list.sort((a, b) => a.publicKey.compare(b.publicKey));
}

export const blsSuite: Suite = {
  name: 'bls',
  summary:
    'fastAggregateVerify (101 keys), certificate check (one by one and batched in the worker pool), verify, popVerify (native and bigint)',
  async run(progress) {
    progress('bls: signing a certificate with 101 keys');
    const { chainID } = loadChainConfig(DEV_CONFIG_FILE).genesis;
    const devBlocks = readDevBlocks();
    const tip = Block.fromBytes(devBlocks[devBlocks.length - 1]!.bytes);
    const certificate = unsignedCertificateBytes(tip.header);
    const digest = taggedDigest(MESSAGE_TAG_CERTIFICATE, chainID, certificate);

    const set = validators();
    const keys = set.map((v) => v.publicKey);
    const { aggregationBits, signature } = createAggSig(
      keys,
      set.map((v) => ({ publicKey: v.publicKey, signature: signBLS(MESSAGE_TAG_CERTIFICATE, chainID, certificate, v.secretKey) })),
    );
    const weights = keys.map(() => 10n);
    const threshold = 10n * BigInt(Math.floor((2 * VALIDATORS) / 3) + 1);
    const single = set[0]!;
    const singleSignature = signBLS(MESSAGE_TAG_CERTIFICATE, chainID, certificate, single.secretKey);
    progress('bls: proof of possession');
    const proof = popProve(single.secretKey);

    const warm = () => fastAggregateVerify(keys, digest, signature);
    const cold = () =>
      blstFastAggregateVerify(
        digest,
        keys.map((key) => BlstPublicKey.fromBytes(key, false)),
        BlstSignature.fromBytes(signature, false),
        true,
      );
    const certificateCheck = () =>
      verifyWeightedAggSig(keys, aggregationBits, signature, MESSAGE_TAG_CERTIFICATE, chainID, certificate, weights, threshold);
    const verifyOne = () => verifyBLS(MESSAGE_TAG_CERTIFICATE, chainID, certificate, singleSignature, single.publicKey);
    const pop = () => popVerifyBigint(single.publicKey, proof);
    const nativePop = nativePopVerify;
    const popNative = nativePop === undefined ? undefined : () => nativePop(single.publicKey, proof);
    const checks = { warm, cold, certificateCheck, verifyOne, pop, ...(popNative === undefined ? {} : { popNative }) };
    for (const [label, check] of Object.entries(checks)) {
      if (!check()) throw new Error(`bls ${label}: the benchmark signature does not verify.`);
    }

    const coldName = 'bls fastAggregateVerify 101 keys, keys decoded per call';
    progress('bls: fastAggregateVerify, certificate check, verify');
    const [warmMs, coldMs, certificateMs, verifyMs] = await interleavedMsPerOp(
      Object.entries({ warm, cold, certificateCheck, verifyOne }).map(([name, fn]) => ({ name, fn, minIterations: 32 })),
    );
    progress('bls: popVerify, bigint');
    const popMs = await medianMsPerOp({ name: 'popVerify', fn: pop, minIterations: 8, warmupIterations: 2 });
    let popNativeMs: number | undefined;
    if (popNative === undefined) progress('bls: popVerify native skipped: the native addon is not loaded');
    else {
      progress('bls: popVerify, native');
      popNativeMs = await medianMsPerOp({ name: 'popVerify native', fn: popNative, minIterations: 64, warmupIterations: 8 });
    }
    progress(`bls: ${POOL_CERTIFICATES} certificates, one by one and through the worker pool`);
    const pooled = await poolCertificateMs(set, chainID);
    progress(`bls: popVerify in the worker pool, batches of ${POP_BATCH}`);
    const popPooled = await poolPopMs(set.slice(0, POP_BATCH));
    const oneByOneName = `bls ${POOL_CERTIFICATES} certificate checks one by one, main thread (per certificate)`;
    const pooledName = `bls ${POOL_CERTIFICATES} certificate checks batched, worker pool (${pooled.threads} threads, per certificate)`;
    const popPooledName = `bls popVerify in the worker pool, batch of ${POP_BATCH} (${popPooled.threads} threads, per check)`;
    const results: Measurement[] = [
      { name: pooledName, value: pooled.poolMs, unit: 'ms/op', baseline: oneByOneName },
      ...pooled.counters.rows(pooledName),
      { name: oneByOneName, value: pooled.mainMs, unit: 'ms/op' },
      { name: 'bls fastAggregateVerify 101 keys, warm key cache', value: warmMs!, unit: 'ms/op', baseline: coldName },
      { name: coldName, value: coldMs!, unit: 'ms/op' },
      { name: 'bls certificate check 101 validators (verifyWeightedAggSig)', value: certificateMs!, unit: 'ms/op' },
      { name: 'bls verify 1 key', value: verifyMs!, unit: 'ms/op' },
      { name: 'bls popVerify', value: popMs, unit: 'ms/op' },
      // The pool's threads run popVerify as this thread does: native when the addon is loaded.
      {
        name: popPooledName,
        value: popPooled.perCheckMs,
        unit: 'ms/op',
        baseline: popNativeMs === undefined ? 'bls popVerify' : 'bls popVerify native',
      },
      ...popPooled.counters.rows(popPooledName),
    ];
    if (popNativeMs !== undefined) {
      results.push({ name: 'bls popVerify native', value: popNativeMs, unit: 'ms/op', baseline: 'bls popVerify' });
    }
    return results;
  },
};

/**
 * Per-certificate wall time of POOL_CERTIFICATES full-house certificates (101 keys each, distinct
 * messages): one by one on this thread, against one verifyBls call on the node's pool (one
 * multi-pairing per thread, warm per-thread key caches).
 */
async function poolCertificateMs(
  set: readonly Validator[],
  chainID: Buffer,
): Promise<{ poolMs: number; mainMs: number; threads: number; counters: PoolCounters }> {
  const keys = set.map((v) => v.publicKey);
  const checks: BlsCheck[] = Array.from({ length: POOL_CERTIFICATES }, (_, i) => {
    const certificate = sha256(Buffer.from(`basalt-bench:certificate:${i}`));
    const pairs = set.map((v) => ({
      publicKey: v.publicKey,
      signature: signBLS(MESSAGE_TAG_CERTIFICATE, chainID, certificate, v.secretKey),
    }));
    const { signature } = createAggSig(keys, pairs);
    return {
      kind: 'fastAggregateVerify',
      publicKeys: keys,
      message: taggedDigest(MESSAGE_TAG_CERTIFICATE, chainID, certificate),
      signature,
    };
  });
  const rounds = 5;
  let start = performance.now();
  for (let round = 0; round < rounds; round += 1) {
    if (!checks.every(verifyBlsCheck)) throw new Error('bls: a benchmark certificate does not verify.');
  }
  const mainMs = (performance.now() - start) / (rounds * checks.length);
  const pool = new WorkerPool();
  try {
    // The verifier the node holds, with the node's settings.
    const { signatureVerifier: verifier } = offThreadWork(pool);
    for (let i = 0; i < 2; i += 1) await verifier.verifyBls(checks);
    const counters = new PoolCounters(pool);
    start = performance.now();
    for (let round = 0; round < rounds; round += 1) {
      if ((await verifier.verifyBls(checks)).some((ok) => !ok)) throw new Error('bls: a pooled certificate does not verify.');
    }
    const poolMs = (performance.now() - start) / (rounds * checks.length);
    counters.stop();
    return { poolMs, mainMs, threads: pool.threads, counters };
  } finally {
    await pool.close();
  }
}

/**
 * Wall time per proof of possession of one call with `validators.length` distinct proofs on the
 * node's block-time verifier (consensus class, one share per thread), after a warm-up call.
 */
async function poolPopMs(validators: readonly Validator[]): Promise<{ perCheckMs: number; threads: number; counters: PoolCounters }> {
  const checks = validators.map((v) => ({ publicKey: v.publicKey, proof: popProve(v.secretKey) }));
  const pool = new WorkerPool();
  try {
    // The verifier the node checks a block's proofs with.
    const verifier = offThreadWork(pool).popVerifiers.blocks;
    await verifier.verifyProofsOfPossession(checks);
    const rounds = 3;
    const counters = new PoolCounters(pool);
    const start = performance.now();
    for (let round = 0; round < rounds; round += 1) {
      if ((await verifier.verifyProofsOfPossession(checks)).some((ok) => !ok))
        throw new Error('bls: a pooled proof of possession does not verify.');
    }
    const perCheckMs = (performance.now() - start) / (rounds * checks.length);
    counters.stop();
    return { perCheckMs, threads: pool.threads, counters };
  } finally {
    await pool.close();
  }
}
