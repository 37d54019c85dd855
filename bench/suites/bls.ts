/**
 * BLS (blst) on the jobs a Lisk node does: a certificate signed by all 101 active validators,
 * checked with FastAggregateVerify (warm public-key cache, as in a running node) against the
 * same check with the 101 keys deserialised on every call (what a cache-less node pays); the
 * full certificate check verifyWeightedAggSig (bitmap, weights, threshold, tagged digest); a
 * single-signature verify for scale; and popVerify, run once per validator registration.
 */
import {
  PublicKey as BlstPublicKey,
  Signature as BlstSignature,
  fastAggregateVerify as blstFastAggregateVerify,
} from '@chainsafe/blst';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import {
  MESSAGE_TAG_CERTIFICATE,
  blsPublicKeyFromSecretKey,
  createAggSig,
  fastAggregateVerify,
  popProve,
  popVerify,
  sha256,
  signBLS,
  taggedDigest,
  verifyBLS,
  verifyWeightedAggSig,
} from '../../src/crypto/index.js';
import { unsignedCertificateBytes } from '../../src/engine/consensus/aggregate-commit.js';
import { DEV_CONFIG_FILE, readDevBlocks } from '../lib/dev-chain.js';
import type { Measurement } from '../lib/figure.js';
import { interleavedMsPerOp, medianMsPerOp } from '../lib/measure.js';
import type { Suite } from '../lib/suite.js';

const VALIDATORS = 101;

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
  summary: 'fastAggregateVerify (101 keys), certificate check, verify, popVerify',
  async run(progress) {
    progress('bls: signing a certificate with 101 keys');
    const { chainID } = loadChainConfig(DEV_CONFIG_FILE).genesis;
    const devBlocks = readDevBlocks();
    const tip = Block.fromBytes(devBlocks[devBlocks.length - 1]!.bytes);
    const certificate = unsignedCertificateBytes(tip.header);
    const digest = taggedDigest(MESSAGE_TAG_CERTIFICATE, chainID, certificate);

    const set = validators();
    const keys = set.map(v => v.publicKey);
    const { aggregationBits, signature } = createAggSig(
      keys,
      set.map(v => ({ publicKey: v.publicKey, signature: signBLS(MESSAGE_TAG_CERTIFICATE, chainID, certificate, v.secretKey) })),
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
        keys.map(key => BlstPublicKey.fromBytes(key, false)),
        BlstSignature.fromBytes(signature, false),
        true,
      );
    const certificateCheck = () =>
      verifyWeightedAggSig(keys, aggregationBits, signature, MESSAGE_TAG_CERTIFICATE, chainID, certificate, weights, threshold);
    const verifyOne = () => verifyBLS(MESSAGE_TAG_CERTIFICATE, chainID, certificate, singleSignature, single.publicKey);
    const pop = () => popVerify(single.publicKey, proof);
    for (const [label, check] of Object.entries({ warm, cold, certificateCheck, verifyOne, pop })) {
      if (!check()) throw new Error(`bls ${label}: the benchmark signature does not verify.`);
    }

    const coldName = 'bls fastAggregateVerify 101 keys, keys decoded per call';
    progress('bls: fastAggregateVerify, certificate check, verify');
    const [warmMs, coldMs, certificateMs, verifyMs] = await interleavedMsPerOp(
      Object.entries({ warm, cold, certificateCheck, verifyOne }).map(([name, fn]) => ({ name, fn, minIterations: 32 })),
    );
    progress('bls: popVerify');
    const popMs = await medianMsPerOp({ name: 'popVerify', fn: pop, minIterations: 8, warmupIterations: 2 });
    const results: Measurement[] = [
      { name: 'bls fastAggregateVerify 101 keys, warm key cache', value: warmMs!, unit: 'ms/op', baseline: coldName },
      { name: coldName, value: coldMs!, unit: 'ms/op' },
      { name: 'bls certificate check 101 validators (verifyWeightedAggSig)', value: certificateMs!, unit: 'ms/op' },
      { name: 'bls verify 1 key', value: verifyMs!, unit: 'ms/op' },
      { name: 'bls popVerify', value: popMs, unit: 'ms/op' },
    ];
    return results;
  },
};
