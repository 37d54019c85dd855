/**
 * Work for the worker pool in tests: a packed `ed25519.verifyBatch` input of `count` copies of
 * one valid check, about 60 µs of work each, so its size sets how long a task keeps a thread.
 */
import { randomBytes } from 'node:crypto';
import { keyPairFromSeed, signDigest } from '../../src/crypto/index.js';

export function packedEd25519Batch(count: number) {
  const { publicKey, privateKey } = keyPairFromSeed(randomBytes(32));
  const digest = randomBytes(32);
  const signature = signDigest(digest, privateKey);
  return {
    count,
    digests: Buffer.concat(Array.from({ length: count }, () => digest)),
    signatures: Buffer.concat(Array.from({ length: count }, () => signature)),
    publicKeys: Buffer.concat(Array.from({ length: count }, () => publicKey)),
  };
}
