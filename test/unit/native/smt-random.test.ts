/**
 * 10,000 random batches through the native tree and the TypeScript tree, compared byte for byte:
 * roots, write sets (node hashes and encodings, in order), removed hashes (in order) and proofs.
 * Trees stay small and keys often share long prefixes, so that leaves move up and down, branches
 * collapse, and deletes, rewrites, duplicates and no-op batches all occur. Each sequence is
 * seeded; a failure names its seed.
 *
 * BASALT_NATIVE_LARGE=1 adds a run on larger trees (tens of thousands of leaves).
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_HASH } from '../../../src/merkle/hash.js';
import { InMemorySmtNodeStore, SparseMerkleTree } from '../../../src/merkle/smt/index.js';
import { nativeAddon } from '../../../src/native/index.js';
import { NativeSmtNodeStore, NativeSparseMerkleTree } from '../../../src/merkle/native/index.js';
import { Random, expectSameProof, expectSameUpdate, nativeMissing } from './native-test-support.js';

const EMPTY = Buffer.alloc(0);

interface Shape {
  /** Key length in bytes. */
  readonly keyLength: number;
  /** Distinct keys a sequence draws from (bounds the tree size). */
  readonly poolSize: number;
  /** Largest batch. */
  readonly maxBatch: number;
}

/** Keys whose bytes come from a few values, so that many share long prefixes. */
function keyPool(random: Random, shape: Shape): Buffer[] {
  const alphabet = [0x00, 0x01, 0x80, 0xff, random.int(256)];
  const seen = new Set<string>();
  const pool: Buffer[] = [];
  while (pool.length < shape.poolSize) {
    const clustered = random.int(2) === 0;
    const key = Buffer.alloc(shape.keyLength);
    for (let i = 0; i < shape.keyLength; i += 1) key[i] = clustered ? random.pick(alphabet) : random.int(256);
    const id = key.toString('hex');
    if (!seen.has(id)) {
      seen.add(id);
      pool.push(key);
    }
  }
  return pool;
}

/** A batch: inserts, rewrites (sometimes with the same value), deletes (of present or absent keys), duplicates. */
function randomBatch(random: Random, pool: Buffer[], values: Map<string, Buffer>, shape: Shape): { keys: Buffer[]; values: Buffer[] } {
  const size = random.int(shape.maxBatch + 1);
  const keys: Buffer[] = [];
  const batchValues: Buffer[] = [];
  for (let i = 0; i < size; i += 1) {
    const key = random.int(8) === 0 && keys.length > 0 ? random.pick(keys) : random.pick(pool);
    const current = values.get(key.toString('hex'));
    const roll = random.int(10);
    let value: Buffer;
    if (roll < 3) value = EMPTY;
    else if (roll === 3 && current !== undefined) value = current;
    else value = random.bytes(1 + random.int(random.int(4) === 0 ? 100 : 8));
    keys.push(key);
    batchValues.push(value);
  }
  return { keys, values: batchValues };
}

/**
 * One seeded sequence of batches on three trees (TypeScript; native over the native store;
 * native over a JavaScript store); returns the number of batches compared.
 */
function runSequence(seed: number, shape: Shape, batches: number): number {
  const random = new Random(seed);
  const addon = nativeAddon!;
  const pool = keyPool(random, shape);
  const tsStore = new InMemorySmtNodeStore();
  const nativeStore = new NativeSmtNodeStore(addon);
  const jsStore = new InMemorySmtNodeStore();
  const ts = new SparseMerkleTree(tsStore, shape.keyLength);
  const nativeOwn = new NativeSparseMerkleTree(nativeStore, shape.keyLength, addon);
  const nativeJs = new NativeSparseMerkleTree(jsStore, shape.keyLength, addon);
  const values = new Map<string, Buffer>();
  const prune = random.int(2) === 0;
  let root: Buffer = random.int(2) === 0 ? EMPTY : EMPTY_HASH;

  for (let b = 0; b < batches; b += 1) {
    const context = `seed ${seed}, batch ${b}`;
    const batch = randomBatch(random, pool, values, shape);
    const expected = ts.update(root, batch.keys, batch.values);
    const own = nativeOwn.update(root, batch.keys, batch.values);
    const viaJs = nativeJs.update(root, batch.keys, batch.values);
    expectSameUpdate(own, expected, context);
    expectSameUpdate(viaJs, expected, context);
    // A batch that changes nothing hands back the given root itself, as the TypeScript tree does.
    expect(own.root === root, context).toBe(expected.root === root);
    expect(viaJs.root === root, context).toBe(expected.root === root);

    tsStore.apply(expected, prune);
    nativeStore.apply(own, prune);
    jsStore.apply(viaJs, prune);
    batch.keys.forEach((key, i) => {
      const value = batch.values[i] as Buffer;
      if (value.length === 0) values.delete(key.toString('hex'));
      else values.set(key.toString('hex'), value);
    });
    root = expected.root;

    if (random.int(4) === 0) {
      const queryKeys = Array.from({ length: 1 + random.int(6) }, () =>
        random.int(3) === 0 ? random.bytes(shape.keyLength) : random.pick(pool),
      );
      const proof = ts.prove(root, queryKeys);
      expectSameProof(nativeOwn.prove(root, queryKeys), proof, context);
      expectSameProof(nativeJs.prove(root, queryKeys), proof, context);
    }
  }
  // With pruning the stores hold exactly the live tree, in every implementation.
  if (prune) expect(nativeStore.size).toBe(tsStore.size);
  return batches;
}

const SHAPES: { shape: Shape; sequences: number; batches: number }[] = [
  { shape: { keyLength: 32, poolSize: 60, maxBatch: 12 }, sequences: 60, batches: 50 },
  { shape: { keyLength: 2, poolSize: 40, maxBatch: 10 }, sequences: 40, batches: 50 },
  { shape: { keyLength: 12, poolSize: 80, maxBatch: 20 }, sequences: 40, batches: 50 },
  { shape: { keyLength: 38, poolSize: 120, maxBatch: 30 }, sequences: 40, batches: 50 },
  { shape: { keyLength: 1, poolSize: 30, maxBatch: 8 }, sequences: 20, batches: 50 },
];

describe.skipIf(nativeMissing('smt random'))('native SMT on random batches', () => {
  let total = 0;
  for (const { shape, sequences, batches } of SHAPES) {
    it(`${sequences} sequences of ${batches} batches, ${shape.keyLength}-byte keys`, () => {
      for (let s = 0; s < sequences; s += 1) total += runSequence(1000 * shape.keyLength + s + 1, shape, batches);
    });
  }

  it('compared 10,000 batches in all', () => {
    expect(total).toBe(10_000);
  });

  it.runIf(process.env.BASALT_NATIVE_LARGE === '1')('large trees (BASALT_NATIVE_LARGE=1)', () => {
    for (let s = 0; s < 3; s += 1) runSequence(777 + s, { keyLength: 32, poolSize: 40_000, maxBatch: 5_000 }, 12);
  });
});
