/**
 * Sparse Merkle tree multiproofs (LIP 0039, lisk-db's format): every generated proof verifies and
 * tells inclusion from non-inclusion correctly; any alteration (a sibling byte, a bitmap bit, a
 * value, a dropped sibling) makes it fail; removing keys from a proof keeps it valid.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_HASH } from '../../../src/merkle/hash.js';
import {
  InMemorySmtNodeStore,
  SparseMerkleTree,
  calculateRoot,
  isInclusionProofForQueryKey,
  removeKeysFromProof,
  verify,
  verifyInclusionProof,
  verifyNonInclusionProof,
} from '../../../src/merkle/smt/index.js';
import type { SmtProof } from '../../../src/merkle/smt/index.js';
import { clusteredKeyArb, randomKeyArb } from './smt-reference.js';

const RUNS = 250;
const EMPTY = Buffer.alloc(0);

interface MutableProof {
  siblingHashes: Buffer[];
  queries: { key: Buffer; value: Buffer; bitmap: Buffer }[];
}

const copy = (proof: SmtProof): MutableProof => ({
  siblingHashes: proof.siblingHashes.map((hash) => Buffer.from(hash)),
  queries: proof.queries.map((query) => ({
    key: Buffer.from(query.key),
    value: Buffer.from(query.value),
    bitmap: Buffer.from(query.bitmap),
  })),
});

/** A tree (as distinct keys with values) and query keys: some present, some absent, possibly repeated. */
const proofScenarioArb = (keyArb: fc.Arbitrary<Buffer>) =>
  fc.uniqueArray(keyArb, { maxLength: 24, selector: (key) => key.toString('hex') }).chain((present) =>
    fc.record({
      present: fc.constant(present),
      values: fc.array(fc.uint8Array({ minLength: 1, maxLength: 4 }), {
        minLength: present.length,
        maxLength: present.length,
      }),
      queryKeys: fc.array(present.length > 0 ? fc.oneof(fc.constantFrom(...present), keyArb) : keyArb, {
        minLength: 1,
        maxLength: 8,
      }),
      pick: fc.nat(),
    }),
  );

function buildTree(keyLength: number, keys: Buffer[], values: Uint8Array[]) {
  const store = new InMemorySmtNodeStore();
  const tree = new SparseMerkleTree(store, keyLength);
  const result = tree.update(EMPTY, keys, values);
  store.apply(result);
  return { tree, root: result.root };
}

function checkProofs(keyLength: number, keyArb: fc.Arbitrary<Buffer>): void {
  fc.assert(
    fc.property(proofScenarioArb(keyArb), ({ present, values, queryKeys, pick }) => {
      const { tree, root } = buildTree(keyLength, present, values);
      const proof = tree.prove(root, queryKeys);
      expect(proof.queries).toHaveLength(queryKeys.length);
      expect(verify(queryKeys, proof, root, keyLength)).toBe(true);
      expect(tree.verify(queryKeys, proof, root)).toBe(true);
      expect(calculateRoot(proof).equals(root)).toBe(true);

      const inTree = queryKeys.map((key) => tree.get(root, key));
      proof.queries.forEach((query, i) => {
        const value = inTree[i];
        expect(isInclusionProofForQueryKey(queryKeys[i] as Buffer, query)).toBe(value !== undefined);
        if (value !== undefined) expect(query.value.equals(value)).toBe(true);
        // The deepest bit of a bitmap is always set (no leading zero byte).
        if (query.bitmap.length > 0) expect(query.bitmap[0]).not.toBe(0);
      });
      expect(verifyInclusionProof(queryKeys, proof, root, keyLength)).toBe(inTree.every((v) => v !== undefined));
      expect(verifyNonInclusionProof(queryKeys, proof, root, keyLength)).toBe(inTree.every((v) => v === undefined));
      expect(verify([...queryKeys, queryKeys[0] as Buffer], proof, root, keyLength)).toBe(false);

      const victim = pick % proof.queries.length;

      if (proof.siblingHashes.length > 0) {
        const flipped = copy(proof);
        (flipped.siblingHashes[pick % flipped.siblingHashes.length] as Buffer)[(pick >> 3) % 32] ^= 1 << (pick % 8);
        expect(verify(queryKeys, flipped, root, keyLength)).toBe(false);

        const dropped = copy(proof);
        dropped.siblingHashes.splice(pick % dropped.siblingHashes.length, 1);
        expect(verify(queryKeys, dropped, root, keyLength)).toBe(false);
      }

      const rebitmapped = copy(proof);
      const query = rebitmapped.queries[victim] as MutableProof['queries'][number];
      if (query.bitmap.length === 0) {
        query.bitmap = Buffer.from([1]);
      } else {
        const bit = pick % (query.bitmap.length * 8);
        query.bitmap[query.bitmap.length - 1 - (bit >> 3)] ^= 1 << (bit & 7);
      }
      expect(verify(queryKeys, rebitmapped, root, keyLength)).toBe(false);

      const revalued = copy(proof);
      const target = revalued.queries[victim] as MutableProof['queries'][number];
      target.value = target.value.length === 0 ? Buffer.from([pick & 0xff]) : Buffer.concat([target.value, Buffer.from([0])]);
      expect(verify(queryKeys, revalued, root, keyLength)).toBe(false);

      expect(verify(queryKeys, proof, Buffer.alloc(32, 1), keyLength)).toBe(false);
    }),
    { numRuns: RUNS },
  );
}

describe('SMT proofs', () => {
  it('verify and resist alteration, clustered 3-byte keys', () => {
    checkProofs(3, clusteredKeyArb(3));
  });

  it('verify and resist alteration, random 32-byte keys', () => {
    checkProofs(32, randomKeyArb(32));
  });

  it('prove non-inclusion in the empty tree and in a one-leaf tree', () => {
    const { tree } = buildTree(2, [], []);
    const key = Buffer.from('abcd', 'hex');
    const empty = tree.prove(EMPTY_HASH, [key]);
    expect(empty).toEqual({ siblingHashes: [], queries: [{ key, value: EMPTY, bitmap: EMPTY }] });
    expect(verifyNonInclusionProof([key], empty, EMPTY_HASH, 2)).toBe(true);

    const single = buildTree(2, [Buffer.from('0000', 'hex')], [Buffer.from([7])]);
    const other = single.tree.prove(single.root, [key]);
    expect(other.queries[0]?.key.toString('hex')).toBe('0000');
    expect(other.queries[0]?.bitmap.length).toBe(0);
    expect(verifyNonInclusionProof([key], other, single.root, 2)).toBe(true);
    expect(single.tree.prove(single.root, [])).toEqual({ siblingHashes: [], queries: [] });
  });

  it('reject malformed queries', () => {
    const keys = ['0000', '8000', 'c000'].map((k) => Buffer.from(k, 'hex'));
    const { tree, root } = buildTree(2, keys, [Buffer.from([1]), Buffer.from([2]), Buffer.from([3])]);
    const key = Buffer.from('8000', 'hex');
    const proof = copy(tree.prove(root, [key]));
    expect(verify([key], proof, root, 2)).toBe(true);
    expect(verify([key], proof, root, 3)).toBe(false);
    const padded = copy(proof);
    const first = padded.queries[0] as MutableProof['queries'][number];
    first.bitmap = Buffer.concat([Buffer.from([0]), first.bitmap]);
    expect(verify([key], padded, root, 2)).toBe(false);
    // A non-inclusion claim through a leaf that is not on the queried key's path.
    expect(verify([Buffer.from('0001', 'hex')], proof, root, 2)).toBe(false);
    const tooLong = { key, value: EMPTY, bitmap: Buffer.from('0f0f0f', 'hex') };
    expect(() => calculateRoot({ siblingHashes: [], queries: [tooLong] })).toThrow();
  });
});

describe('SMT removeKeysFromProof', () => {
  it('keeps a valid inclusion proof for the remaining keys', () => {
    const scenario = fc
      .uniqueArray(clusteredKeyArb(3), { minLength: 2, maxLength: 24, selector: (key) => key.toString('hex') })
      .chain((keys) =>
        fc.record({
          keys: fc.constant(keys),
          queried: fc.shuffledSubarray(keys, { minLength: 1 }),
          removedCount: fc.nat(),
        }),
      );
    fc.assert(
      fc.property(scenario, ({ keys, queried, removedCount }) => {
        const { tree, root } = buildTree(
          3,
          keys,
          keys.map((_, i) => Buffer.from([i + 1])),
        );
        const proof = tree.prove(root, queried);
        const cut = removedCount % (queried.length + 1);
        const reduced = removeKeysFromProof(proof, queried.slice(0, cut));
        const remaining = queried.slice(cut);
        expect(reduced.queries.map((q) => q.key.toString('hex'))).toEqual(remaining.map((k) => k.toString('hex')));
        if (remaining.length > 0) expect(verifyInclusionProof(remaining, reduced, root, 3)).toBe(true);
        // The result carries the same sibling hashes as a proof made for the remaining keys.
        const direct = tree.prove(root, remaining);
        const sortedHex = (hashes: readonly Buffer[]) => hashes.map((h) => h.toString('hex')).sort();
        expect(sortedHex(reduced.siblingHashes)).toEqual(sortedHex(direct.siblingHashes));
      }),
      { numRuns: RUNS },
    );
  });

  it('rejects keys that are not in the proof', () => {
    const { tree, root } = buildTree(
      2,
      ['0000', '8000'].map((k) => Buffer.from(k, 'hex')),
      [Buffer.from([1]), Buffer.from([2])],
    );
    const proof = tree.prove(root, [Buffer.from('0000', 'hex')]);
    expect(() => removeKeysFromProof(proof, [Buffer.from('1111', 'hex')])).toThrow();
  });
});
