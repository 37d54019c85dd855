/**
 * The root of a tree built from nothing (src/merkle/smt/fresh-root.ts) equals the root the batch
 * update computes from the empty tree (LIP 0039): on the lisk-db SMT fixtures and on random
 * batches with shared prefixes, repeated keys, empty values and keys one bit apart.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_HASH } from '../../../src/merkle/hash.js';
import { freshSmtRoot, InMemorySmtNodeStore, SparseMerkleTree } from '../../../src/merkle/smt/index.js';
import { hex, loadJsonFixture } from '../../support/fixtures.js';
import { Random } from '../native/native-test-support.js';
import { adversarialBatch } from './fresh-root-batches.js';

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

function updateRoot(keyLength: number, keys: readonly Uint8Array[], values: readonly Uint8Array[]): string {
  return toHex(new SparseMerkleTree(new InMemorySmtNodeStore(), keyLength).update(EMPTY_HASH, keys, values).root);
}

describe('freshSmtRoot (TypeScript)', () => {
  it('is the empty hash without leaves or with only empty values, and the leaf hash of one leaf', () => {
    expect(freshSmtRoot([], []).equals(EMPTY_HASH)).toBe(true);
    expect(freshSmtRoot([Buffer.alloc(12)], [Buffer.alloc(0)]).equals(EMPTY_HASH)).toBe(true);
    const key = Buffer.alloc(12, 1);
    const value = Buffer.alloc(32, 2);
    expect(toHex(freshSmtRoot([key], [value]))).toBe(updateRoot(12, [key], [value]));
  });

  for (const name of ['smt_fixtures.json', 'update_tree.json']) {
    it(`gives every root of merkle/smt/${name} (deletes in the same batch)`, () => {
      const data = loadJsonFixture<{
        testCases: { input: { keys: string[]; values: string[]; deleteKeys: string[] }; output: { merkleRoot: string } }[];
      }>(`merkle/smt/${name}`);
      for (const { input, output } of data.testCases) {
        const keys = [...input.keys, ...input.deleteKeys].map(hex);
        const values = [...input.values.map(hex), ...input.deleteKeys.map(() => Buffer.alloc(0))];
        expect(toHex(freshSmtRoot(keys, values))).toBe(output.merkleRoot);
      }
    });
  }

  it('equals the batch update on random and adversarial batches of 0 to 2,000 entries', () => {
    for (let seed = 1; seed <= 120; seed += 1) {
      const random = new Random(seed);
      const { keyLength, keys, values } = adversarialBatch(random, seed === 120 ? 2000 : random.int(300));
      expect(toHex(freshSmtRoot(keys, values)), `seed ${seed}`).toBe(updateRoot(keyLength, keys, values));
    }
  });
});
