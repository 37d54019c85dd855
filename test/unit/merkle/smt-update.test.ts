/**
 * Sparse Merkle tree updates (LIP 0039): whatever the batching and order of inserts,
 * updates and deletes, the root is that of the final data set under the naive recursive
 * definition, and the write sets keep a pruned node store holding exactly the live tree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError, InvalidParamsError, NotFoundError } from '../../../src/errors.js';
import { EMPTY_HASH } from '../../../src/merkle/hash.js';
import { InMemorySmtNodeStore, SparseMerkleTree } from '../../../src/merkle/smt/index.js';
import { BRANCH_TAG, LEAF_TAG } from '../../../src/merkle/smt/node-codec.js';
import type { SmtNodeWrite } from '../../../src/merkle/smt/index.js';
import { applyToModel, clusteredKeyArb, randomKeyArb, referenceRoot, sha, valueArb } from './smt-reference.js';

const RUNS = 250;
const EMPTY = Buffer.alloc(0);

/** Hashes of all nodes reachable from `root`, read through the store. */
function reachableNodes(store: InMemorySmtNodeStore, root: Buffer, keyLength: number): string[] {
  const found: string[] = [];
  const visit = (hash: Buffer): void => {
    if (hash.equals(EMPTY_HASH)) return;
    const data = store.get(hash);
    expect(data, `node ${hash.toString('hex')} must be stored`).toBeDefined();
    found.push(hash.toString('hex'));
    if ((data as Buffer)[0] === BRANCH_TAG) {
      visit((data as Buffer).subarray(1, 33));
      visit((data as Buffer).subarray(33, 65));
    } else {
      expect((data as Buffer).length).toBeGreaterThan(1 + keyLength);
    }
  };
  visit(root);
  return found;
}

/** Every written node is stored under the LIP 0039 hash of its content, and only once. */
function checkWrites(writes: readonly SmtNodeWrite[], keyLength: number): void {
  const seen = new Set<string>();
  for (const { hash, data } of writes) {
    const id = hash.toString('hex');
    expect(seen.has(id)).toBe(false);
    seen.add(id);
    if (data[0] === LEAF_TAG) {
      const [key, value] = [data.subarray(1, 1 + keyLength), data.subarray(1 + keyLength)];
      expect(sha(Buffer.from('LSK_SMTL_'), key, value).equals(hash)).toBe(true);
    } else {
      expect(data[0]).toBe(BRANCH_TAG);
      expect(data.length).toBe(65);
      expect(sha(Buffer.from('LSK_SMTB_'), data.subarray(1)).equals(hash)).toBe(true);
    }
  }
}

/** A pool of distinct keys, writes that pick keys from it, and cut points splitting the writes into batches. */
const scenarioArb = (keyArb: fc.Arbitrary<Buffer>) =>
  fc.uniqueArray(keyArb, { minLength: 1, maxLength: 20, selector: (key) => key.toString('hex') }).chain((pool) =>
    fc.record({
      pool: fc.constant(pool),
      writes: fc.array(fc.record({ key: fc.constantFrom(...pool), value: valueArb }), { maxLength: 60 }),
      cuts: fc.array(fc.nat({ max: 60 }), { maxLength: 6 }),
      shuffleSeed: fc.nat(),
    }),
  );

function runScenario(keyLength: number, keyArb: fc.Arbitrary<Buffer>): void {
  fc.assert(
    fc.property(scenarioArb(keyArb), ({ pool, writes, cuts, shuffleSeed }) => {
      const store = new InMemorySmtNodeStore();
      const tree = new SparseMerkleTree(store, keyLength);
      const model = new Map<string, Buffer>();
      let root: Buffer = EMPTY_HASH;

      const bounds = [...new Set([0, ...cuts.filter((c) => c < writes.length), writes.length])].sort((a, b) => a - b);
      for (let b = 0; b + 1 < bounds.length; b += 1) {
        const batch = writes.slice(bounds[b], bounds[b + 1]);
        const before = new Set(reachableNodes(store, root, keyLength));
        const result = tree.update(
          root,
          batch.map((w) => w.key),
          batch.map((w) => w.value),
        );
        checkWrites(result.writes, keyLength);
        store.apply(result, true);
        applyToModel(model, batch);
        root = result.root;
        expect(root.equals(referenceRoot(model))).toBe(true);
        // With pruning, the store holds the live tree and nothing else ...
        const after = new Set(reachableNodes(store, root, keyLength));
        expect(after.size).toBe(store.size);
        // ... because writes are exactly the new nodes and `removed` exactly the dropped ones.
        for (const { hash } of result.writes) expect(before.has(hash.toString('hex'))).toBe(false);
        const removed = result.removed.map((hash) => hash.toString('hex'));
        expect(new Set(removed).size).toBe(removed.length);
        for (const id of removed) {
          expect(before.has(id)).toBe(true);
          expect(after.has(id)).toBe(false);
        }
        expect(before.size - removed.length + result.writes.length).toBe(after.size);
      }

      for (const key of pool) {
        const expected = model.get(key.toString('hex'));
        const actual = tree.get(root, key);
        expect(actual === undefined ? undefined : actual.toString('hex')).toBe(expected?.toString('hex'));
      }

      // History independence: the final set inserted at once, in any order, gives the same root.
      const entries = [...model].map(([key, value]) => ({ key: Buffer.from(key, 'hex'), value }));
      const shuffled = entries
        .map((entry, i) => ({ entry, rank: (i * 7919 + shuffleSeed) % 10007 }))
        .sort((a, b) => a.rank - b.rank)
        .map(({ entry }) => entry);
      const fresh = new SparseMerkleTree(new InMemorySmtNodeStore(), keyLength).updateEntries(EMPTY, shuffled);
      expect(fresh.root.equals(root)).toBe(true);
      // So does the whole write list as one batch (the last write of a key wins).
      const oneBatch = new SparseMerkleTree(new InMemorySmtNodeStore(), keyLength).updateEntries(EMPTY_HASH, writes);
      expect(oneBatch.root.equals(root)).toBe(true);
    }),
    { numRuns: RUNS },
  );
}

describe('SMT batch update', () => {
  it('matches the recursive definition for clustered 3-byte keys, whatever the batching', () => {
    runScenario(3, clusteredKeyArb(3));
  });

  it('matches the recursive definition for random 32-byte keys, whatever the batching', () => {
    runScenario(32, randomKeyArb(32));
  });

  it('gives EMPTY_HASH for the empty tree and the leaf hash for one leaf', () => {
    const tree = new SparseMerkleTree(new InMemorySmtNodeStore(), 2);
    expect(tree.update(EMPTY, [], []).root.equals(EMPTY_HASH)).toBe(true);
    const one = tree.update(EMPTY, [Buffer.from('abcd', 'hex')], [Buffer.from('01', 'hex')]);
    expect(one.root.equals(sha(Buffer.from('LSK_SMTL_'), Buffer.from('abcd01', 'hex')))).toBe(true);
    expect(one.writes).toHaveLength(1);
  });

  it('changes nothing when deleting an absent key or rewriting a value', () => {
    const store = new InMemorySmtNodeStore();
    const tree = new SparseMerkleTree(store, 2);
    const keys = ['0000', '0001', '8000', 'ffff'].map((k) => Buffer.from(k, 'hex'));
    const built = tree.update(
      EMPTY,
      keys,
      keys.map(() => Buffer.from([1])),
    );
    store.apply(built);
    for (const absent of ['0002', '7fff', '8001', 'fffe']) {
      const result = tree.update(built.root, [Buffer.from(absent, 'hex')], [EMPTY]);
      expect(result.root.equals(built.root)).toBe(true);
      expect(result.writes).toHaveLength(0);
      expect(result.removed).toHaveLength(0);
    }
    const same = tree.update(built.root, [keys[2] as Buffer], [Buffer.from([1])]);
    expect(same.writes).toHaveLength(0);
    expect(same.removed).toHaveLength(0);
    expect(tree.update(EMPTY, [keys[0] as Buffer], [EMPTY]).root.equals(EMPTY_HASH)).toBe(true);
  });

  it('reports the old nodes it replaces and keeps leaves that only move', () => {
    const store = new InMemorySmtNodeStore();
    const tree = new SparseMerkleTree(store, 1);
    const a = Buffer.from([0x00]);
    const b = Buffer.from([0x01]);
    const built = tree.update(EMPTY, [a, b], [Buffer.from([1]), Buffer.from([2])]);
    store.apply(built);
    // a and b share 7 bits: one leaf pair under a chain of 7 single-child branches.
    expect(built.writes).toHaveLength(2 + 8);
    const removed = tree.update(built.root, [b], [EMPTY]);
    const leafA = sha(Buffer.from('LSK_SMTL_'), a, Buffer.from([1]));
    expect(removed.root.equals(leafA)).toBe(true);
    expect(removed.writes).toHaveLength(0);
    expect(removed.removed).toHaveLength(8 + 1);
    expect(removed.removed.some((hash) => hash.equals(leafA))).toBe(false);
  });

  it('rejects bad keys and value counts, and a store that lacks the tree', () => {
    const tree = new SparseMerkleTree(new InMemorySmtNodeStore(), 4);
    expect(() => tree.update(EMPTY, [Buffer.alloc(3)], [Buffer.from([1])])).toThrow(FormatError);
    expect(() => tree.update(EMPTY, [Buffer.alloc(4)], [])).toThrow(InvalidParamsError);
    expect(() => tree.update(Buffer.alloc(32, 9), [Buffer.alloc(4)], [Buffer.from([1])])).toThrow(NotFoundError);
    expect(() => new SparseMerkleTree(new InMemorySmtNodeStore(), 0)).toThrow(InvalidParamsError);
  });
});

describe('InMemorySmtNodeStore', () => {
  it('tells apart hashes that share their map bucket', () => {
    const store = new InMemorySmtNodeStore();
    const first = Buffer.alloc(32, 1);
    const second = Buffer.alloc(32, 1);
    second[31] = 2; // same first four bytes, so the same bucket
    store.set(first, Buffer.from('a'));
    store.set(second, Buffer.from('b'));
    expect(store.size).toBe(2);
    expect(store.get(first)?.toString()).toBe('a');
    expect(store.get(second)?.toString()).toBe('b');
    store.set(first, Buffer.from('c'));
    expect(store.size).toBe(2);
    store.delete(second);
    expect(store.get(second)).toBeUndefined();
    expect(store.get(first)?.toString()).toBe('c');
    store.delete(first);
    expect(store.size).toBe(0);
    expect(store.get(first)).toBeUndefined();
  });
});
