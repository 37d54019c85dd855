/**
 * SHA-256 on the input sizes that dominate the protocol: 32 B (a hash), 64 B (two hashes), 73 B
 * (an SMT branch node: 9-byte prefix + two hashes), 1024 B (a large payload). Basalt's sha256
 * (src/crypto) against node:crypto createHash (the baseline: what most Node code does),
 * node:crypto's one-shot `hash`, and hash-wasm. Every implementation is checked against
 * createHash once before it is timed.
 */
import * as nodeCrypto from 'node:crypto';
import { createSHA256 } from 'hash-wasm';
import { sha256 } from '../../src/crypto/index.js';
import type { Measurement } from '../lib/figure.js';
import { interleavedMsPerOp } from '../lib/measure.js';
import type { Suite } from '../lib/suite.js';

const SIZES = [32, 64, 73, 1024] as const;
/** Hashes per timed call: one call of ~1 µs would be mostly timer overhead. */
const HASHES_PER_CALL = 256;

type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'buffer') => Buffer;
// Typed through a cast: some @types/node 20 releases lack `crypto.hash` (Node ≥ 20.12 has it).
const oneShotHash = (nodeCrypto as unknown as { hash?: OneShotHash }).hash;

interface Implementation {
  readonly label: string;
  /** Hashes `data` `n` times; returns the last digest. */
  readonly loop: (data: Buffer, n: number) => Uint8Array | undefined;
}

export const sha256Suite: Suite = {
  name: 'sha256',
  summary: 'src/crypto sha256 vs createHash, crypto.hash and hash-wasm on 32/64/73/1024 B',
  async run(progress) {
    const wasm = await createSHA256();
    // Each loop is its own function literal so that every call site stays monomorphic: one
    // shared loop calling four implementations would measure V8's megamorphic call instead.
    const implementations: Implementation[] = [
      {
        label: 'createHash',
        loop: (data, n) => {
          let last: Uint8Array | undefined;
          for (let i = 0; i < n; i++) last = nodeCrypto.createHash('sha256').update(data).digest();
          return last;
        },
      },
      {
        label: 'basalt sha256',
        loop: (data, n) => {
          let last: Uint8Array | undefined;
          for (let i = 0; i < n; i++) last = sha256(data);
          return last;
        },
      },
      {
        label: 'crypto.hash',
        loop: (data, n) => {
          if (oneShotHash === undefined) throw new Error('node:crypto has no one-shot hash (Node < 20.12).');
          let last: Uint8Array | undefined;
          for (let i = 0; i < n; i++) last = oneShotHash('sha256', data, 'buffer');
          return last;
        },
      },
      {
        label: 'hash-wasm',
        loop: (data, n) => {
          let last: Uint8Array | undefined;
          for (let i = 0; i < n; i++) last = wasm.init().update(data).digest('binary') as Uint8Array;
          return last;
        },
      },
    ];

    const results: Measurement[] = [];
    for (const size of SIZES) {
      progress(`sha256: ${size} B`);
      const input = nodeCrypto.randomBytes(size);
      const expected = nodeCrypto.createHash('sha256').update(input).digest();
      const baselineName = `sha256 ${size} B createHash`;
      for (const { label, loop } of implementations) {
        const digest = loop(input, 1);
        if (digest === undefined || !expected.equals(digest)) throw new Error(`${label} computes a wrong SHA-256 for ${size} bytes.`);
      }
      const msPerHash = await interleavedMsPerOp(
        implementations.map(({ label, loop }) => ({
          name: label,
          timeMs: 600,
          opsPerCall: HASHES_PER_CALL,
          fn: () => loop(input, HASHES_PER_CALL),
        })),
      );
      implementations.forEach(({ label }, i) => {
        const name = `sha256 ${size} B ${label}`;
        results.push({ name, value: msPerHash[i]! * 1000, unit: 'µs/op', ...(name === baselineName ? {} : { baseline: baselineName }) });
      });
    }
    return results;
  },
};
