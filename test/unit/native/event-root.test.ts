/**
 * The block event root through the native SMT equals the TypeScript one (the dev chain replay
 * checks it against lisk-sdk's own eventRoots block by block; this covers sizes that chain has not).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EMPTY_HASH } from '../../../src/merkle/hash.js';
import { computeEventRoot as typescriptEventRoot } from '../../../src/merkle/smt/index.js';
import { computeEventRoot } from '../../../src/merkle/native/index.js';

describe('computeEventRoot (native when built)', () => {
  it('equals the TypeScript root for 0 to 2,000 leaves, duplicates of topic prefixes included', () => {
    for (const count of [0, 1, 2, 3, 17, 256, 2000]) {
      const prefix = randomBytes(8);
      const leaves = Array.from({ length: count }, (_, i) => {
        // Events share the 8-byte topic hash prefix and differ in the index, as real ones do.
        const key = Buffer.concat([i % 3 === 0 ? prefix : randomBytes(8), Buffer.from([0, 0, i >> 8, i & 0xff])]);
        return { key, value: randomBytes(32) };
      });
      expect(computeEventRoot(leaves).toString('hex'), `${count} leaves`).toBe(typescriptEventRoot(leaves).toString('hex'));
    }
    expect(computeEventRoot([])).toEqual(EMPTY_HASH);
  });
});
