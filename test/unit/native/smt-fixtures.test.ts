/**
 * Every case of every SMT fixture (test/fixtures/merkle/smt/*.json) through the native tree, over
 * the native node store and over a JavaScript store: the fixture's root and proof, and the very
 * same write sets and proofs as the TypeScript tree (the fixtures' conformance with lisk-db is
 * checked in test/conformance/merkle.test.ts; this checks the native tree against it).
 */
import { describe, expect, it } from 'vitest';
import { InMemorySmtNodeStore, SparseMerkleTree } from '../../../src/merkle/smt/index.js';
import type { SmtProof } from '../../../src/merkle/smt/index.js';
import { nativeAddon } from '../../../src/native/index.js';
import { NativeSmtNodeStore, NativeSparseMerkleTree } from '../../../src/merkle/native/index.js';
import type { MemoryNodeStore } from '../../../src/merkle/native/index.js';
import { hex, loadJsonFixture } from '../../support/fixtures.js';
import { expectSameProof, expectSameUpdate, nativeMissing, proofToHex } from './native-test-support.js';

const EMPTY = Buffer.alloc(0);

interface SmtInput {
  keys: string[];
  values: string[];
  deleteKeys: string[];
  queryKeys?: string[];
}
interface ProofJson {
  siblingHashes: string[];
  queries: { bitmap: string; key: string; value: string }[];
}
interface GeneratorFile {
  testCases: { description: string; input: SmtInput; output: { merkleRoot: string; proof?: ProofJson } }[];
}

/** The three trees compared: TypeScript, native over its own store, native over a JS store. */
interface Trees {
  readonly ts: { tree: SparseMerkleTree; store: InMemorySmtNodeStore };
  readonly nativeStore: { tree: SparseMerkleTree; store: NativeSmtNodeStore };
  readonly nativeJs: { tree: SparseMerkleTree; store: InMemorySmtNodeStore };
}

function makeTrees(keyLength: number): Trees {
  const addon = nativeAddon!;
  const tsStore = new InMemorySmtNodeStore();
  const nativeStore = new NativeSmtNodeStore(addon);
  const jsStore = new InMemorySmtNodeStore();
  return {
    ts: { tree: new SparseMerkleTree(tsStore, keyLength), store: tsStore },
    nativeStore: { tree: new NativeSparseMerkleTree(nativeStore, keyLength, addon), store: nativeStore },
    nativeJs: { tree: new NativeSparseMerkleTree(jsStore, keyLength, addon), store: jsStore },
  };
}

/**
 * Fixture semantics (as the conformance test): insert keys/values in order, then delete
 * deleteKeys; every step is compared across the three trees and applied to each store.
 */
function buildAll(input: Pick<SmtInput, 'keys' | 'values' | 'deleteKeys'>, keyLength = 32): { trees: Trees; root: Buffer } {
  const trees = makeTrees(keyLength);
  let root: Buffer = EMPTY;
  const steps: [Buffer[], Buffer[]][] = [
    [input.keys.map(hex), input.values.map(hex)],
    [input.deleteKeys.map(hex), input.deleteKeys.map(() => EMPTY)],
  ];
  for (const [keys, values] of steps) {
    const expected = trees.ts.tree.update(root, keys, values);
    const natives: { tree: SparseMerkleTree; store: MemoryNodeStore }[] = [trees.nativeStore, trees.nativeJs];
    for (const { tree, store } of natives) {
      const actual = tree.update(root, keys, values);
      expectSameUpdate(actual, expected);
      store.apply(actual);
    }
    trees.ts.store.apply(expected);
    root = expected.root;
  }
  return { trees, root };
}

/** The proof of each tree for `queryKeys`; all must be the TypeScript one. */
function proveAll(trees: Trees, root: Buffer, queryKeys: Buffer[]): SmtProof {
  const expected = trees.ts.tree.prove(root, queryKeys);
  expectSameProof(trees.nativeStore.tree.prove(root, queryKeys), expected);
  expectSameProof(trees.nativeJs.tree.prove(root, queryKeys), expected);
  return expected;
}

describe.skipIf(nativeMissing('smt fixtures'))('native SMT on the merkle/smt fixtures', () => {
  const counts: Record<string, number> = {
    'smt_fixtures.json': 128,
    'update_tree.json': 256,
    'remove_extra_tree.json': 236,
    'smt_proof_fixtures.json': 128,
    'smt_non_inclusion_proof_fixtures.json': 63,
  };
  for (const [name, count] of Object.entries(counts)) {
    it(`${name}: all ${count} cases`, () => {
      const data = loadJsonFixture<GeneratorFile>(`merkle/smt/${name}`);
      expect(data.testCases).toHaveLength(count);
      let ran = 0;
      for (const [i, { input, output }] of data.testCases.entries()) {
        const { trees, root } = buildAll(input);
        expect(root.toString('hex'), `#${i}`).toBe(output.merkleRoot);
        if (output.proof !== undefined) {
          const proof = proveAll(trees, root, (input.queryKeys ?? []).map(hex));
          expect(proofToHex(proof), `#${i}`).toEqual(output.proof);
        }
        ran += 1;
      }
      expect(ran).toBe(count);
    });
  }

  it('rust_smt_vectors.json: all 4 trees and 3 proofs', () => {
    interface Tree {
      name: string;
      keys: string[];
      values: string[];
      root: string;
    }
    interface Proof extends Tree {
      queryKeys: string[];
      siblingHashes: string[];
      queries: ProofJson['queries'];
    }
    const data = loadJsonFixture<{ trees: Tree[]; proofs: Proof[] }>('merkle/smt/rust_smt_vectors.json');
    expect(data.trees).toHaveLength(4);
    expect(data.proofs).toHaveLength(3);
    for (const vector of data.trees) {
      expect(buildAll({ ...vector, deleteKeys: [] }).root.toString('hex'), vector.name).toBe(vector.root);
    }
    for (const vector of data.proofs) {
      const { trees, root } = buildAll({ ...vector, deleteKeys: [] });
      expect(root.toString('hex')).toBe(vector.root);
      const proof = proveAll(trees, root, vector.queryKeys.map(hex));
      expect(proofToHex(proof)).toEqual({ siblingHashes: vector.siblingHashes, queries: vector.queries });
    }
  });

  it('rust_smt_remove_keys_vectors.json: all 4 cases', () => {
    interface Case {
      name: string;
      keys: string[];
      values: string[];
      root: string;
      queryKeys: string[];
      siblingHashes: string[];
    }
    const data = loadJsonFixture<{ keyLength: number; cases: Case[] }>('merkle/smt/rust_smt_remove_keys_vectors.json');
    expect(data.cases).toHaveLength(4);
    for (const vector of data.cases) {
      const { trees, root } = buildAll({ ...vector, deleteKeys: [] }, data.keyLength);
      expect(root.toString('hex'), vector.name).toBe(vector.root);
      const proof = proveAll(trees, root, vector.queryKeys.map(hex));
      expect(proofToHex(proof).siblingHashes, vector.name).toEqual(vector.siblingHashes);
      // The trimmed proof of the upstream test is the proof of the remaining keys.
      proveAll(trees, root, vector.queryKeys.slice(Math.floor(vector.queryKeys.length / 2)).map(hex));
    }
  });
});
