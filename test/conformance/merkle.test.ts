/**
 * Conformance of the merkle room with lisk-sdk 6.1 (lisk-tree) and lisk-db (SMT): every case of
 * every merkle fixture, plus the worked examples of docs/protocol/merkle-trees.md and
 * state-and-events.md.
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MerkleTree,
  calculateRootFromUpdateData,
  generateProof,
  merkleRoot,
  treeHeight,
  verifyDataBlock,
  verifyProof,
} from '../../src/merkle/rmt/index.js';
import {
  InMemorySmtNodeStore,
  SparseMerkleTree,
  calculateRoot,
  computeEventRoot,
  isInclusionProofForQueryKey,
  removeKeysFromProof,
  verify,
  verifyInclusionProof,
  verifyNonInclusionProof,
} from '../../src/merkle/smt/index.js';
import type { SmtProof } from '../../src/merkle/smt/index.js';
import { recordCases } from '../support/conformance-tally.js';
import { hex, loadJsonFixture } from '../support/fixtures.js';

const EMPTY = Buffer.alloc(0);
const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

interface GeneratorFile<I, O> {
  testCases: { description: string; input: I; output: O }[];
}

/** Runs one `it` per case and records how many ran once the file is done. */
function forEachCase<T extends { description: string }>(fixture: string, cases: T[], run: (testCase: T) => void): void {
  let ran = 0;
  cases.forEach((testCase, i) => {
    it(`#${i} ${testCase.description}`, () => {
      run(testCase);
      ran += 1;
    });
  });
  afterAll(() => recordCases(fixture, ran));
}

// ------------------------------------------------------------------------------------------------
// Regular Merkle tree (LIP 0031)
// ------------------------------------------------------------------------------------------------

describe('merkle/transaction_merkle_root.json', () => {
  const file = 'merkle/transaction_merkle_root.json';
  const data = loadJsonFixture<GeneratorFile<{ transactionIds: string[] }, { transactionMerkleRoot: string }>>(file);
  expect(data.testCases).toHaveLength(15);
  forEachCase(file, data.testCases, ({ input, output }) => {
    const ids = input.transactionIds.map(hex);
    expect(toHex(merkleRoot(ids))).toBe(output.transactionMerkleRoot);
    const appended = new MerkleTree();
    for (const id of ids) appended.append(id);
    expect(toHex(appended.root)).toBe(output.transactionMerkleRoot);
    expect(toHex(MerkleTree.fromLeaves(ids).root)).toBe(output.transactionMerkleRoot);
  });
});

describe('merkle/update_leaves_fixtures.json', () => {
  const file = 'merkle/update_leaves_fixtures.json';
  interface Input {
    values: string[];
    updateValues: string[];
    proof: { size: string; siblingHashes: string[]; indexes: string[] };
  }
  const data = loadJsonFixture<GeneratorFile<Input, { initialMerkleRoot: string; finalMerkleRoot: string }>>(file);
  expect(data.testCases).toHaveLength(100);
  forEachCase(file, data.testCases, ({ input, output }) => {
    const values = input.values.map(hex);
    const updateValues = input.updateValues.map(hex);
    // Fixture note: indexes are hex strings of LIP 0031 node indexes, size is a decimal string.
    const indexes = input.proof.indexes.map((index) => Number(`0x${index}`));
    const size = Number(input.proof.size);
    const siblingHashes = input.proof.siblingHashes.map(hex);

    const tree = MerkleTree.fromLeaves(values);
    expect(toHex(tree.root)).toBe(output.initialMerkleRoot);
    expect(toHex(merkleRoot(values))).toBe(output.initialMerkleRoot);
    expect(tree.size).toBe(size);
    expect(tree.getSiblingHashes(indexes).map(toHex)).toEqual(input.proof.siblingHashes);

    // The proof holds for the old leaves at those indexes ...
    // A leaf's node index is 2^height + its position.
    const leafCount = 2 ** treeHeight(size);
    const oldLeaves = indexes.map((index) => values[index - leafCount] as Buffer);
    expect(verifyDataBlock(oldLeaves, { size, idxs: indexes, siblingHashes }, tree.root)).toBe(true);
    // ... and gives the new root for the new ones.
    expect(toHex(calculateRootFromUpdateData(updateValues, { size, indexes, siblingHashes }))).toBe(output.finalMerkleRoot);
    expect(toHex(tree.update(indexes, updateValues))).toBe(output.finalMerkleRoot);
    expect(toHex(tree.root)).toBe(output.finalMerkleRoot);

    const updated = values.slice();
    indexes.forEach((index, i) => {
      updated[index - leafCount] = updateValues[i] as Buffer;
    });
    expect(toHex(merkleRoot(updated))).toBe(output.finalMerkleRoot);
  });
});

describe('the RMT examples of docs/protocol/merkle-trees.md', () => {
  const leaves = [1, 2, 3, 4, 5].map((byte) => Buffer.from([byte]));
  const leafHash = (data: Buffer): string =>
    createHash('sha256')
      .update(Buffer.concat([Buffer.from([0]), data]))
      .digest('hex');
  const root = 'b2165c86fbfb34fa51840bb6ba3d5ce0d7dc31f2e605b5ba62c98fa86ff6746d';

  it('roots of 5 and 3 leaves', () => {
    expect(toHex(merkleRoot(leaves))).toBe(root);
    expect(toHex(merkleRoot(leaves.slice(0, 3)))).toBe('e2da0242936eb38ec996a543601b3a1da4226391ff92014ed1a7a248ace36347');
  });

  it('proof for leaf 1', () => {
    const proof = generateProof(leaves, [1]);
    expect(proof.size).toBe(5);
    expect(proof.idxs).toEqual([17]);
    expect(proof.siblingHashes.map(toHex)).toEqual([
      leafHash(leaves[0] as Buffer),
      '78850a5ab36238b076dd99fd258c70d523168704247988a94caa8c9ccd056b8d',
      '9f1afa4dc124cba73134e82ff50f17c8f7164257c79fed9a13f5943a6acb8e3d',
    ]);
    expect(leafHash(leaves[4] as Buffer)).toBe('9f1afa4dc124cba73134e82ff50f17c8f7164257c79fed9a13f5943a6acb8e3d');
    expect(verifyDataBlock([leaves[1] as Buffer], proof, hex(root))).toBe(true);
  });

  it('proof for leaves 0 and 4', () => {
    const proof = generateProof(leaves, [0, 4]);
    expect(proof.idxs).toEqual([16, 20]);
    expect(proof.siblingHashes.map(toHex)).toEqual([
      leafHash(leaves[1] as Buffer),
      '78850a5ab36238b076dd99fd258c70d523168704247988a94caa8c9ccd056b8d',
    ]);
    expect(toHex(proof.siblingHashes[0] as Buffer).startsWith('fcf0')).toBe(true);
    expect(verifyDataBlock([leaves[0] as Buffer, leaves[4] as Buffer], proof, hex(root))).toBe(true);
    const tree = MerkleTree.fromLeaves(leaves);
    const byHash = tree.generateProof([hex(leafHash(leaves[0] as Buffer)), hex(leafHash(leaves[4] as Buffer))]);
    expect(byHash).toEqual(proof);
    expect(verifyProof([hex(leafHash(leaves[0] as Buffer))], proof, hex(root))).toBe(false);
  });
});

// ------------------------------------------------------------------------------------------------
// Sparse Merkle tree (LIP 0039 as lisk-db implements it)
// ------------------------------------------------------------------------------------------------

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
interface SmtOutput {
  merkleRoot: string;
  proof?: ProofJson;
}

/** Fixture semantics: insert keys/values in order (last write wins), then delete deleteKeys. */
function buildTree(input: Pick<SmtInput, 'keys' | 'values' | 'deleteKeys'>, keyLength = 32) {
  const store = new InMemorySmtNodeStore();
  const tree = new SparseMerkleTree(store, keyLength);
  const inserted = tree.update(EMPTY, input.keys.map(hex), input.values.map(hex));
  store.apply(inserted);
  const deleted = tree.update(
    inserted.root,
    input.deleteKeys.map(hex),
    input.deleteKeys.map(() => EMPTY),
  );
  store.apply(deleted);
  // The same set as one batch (deletes after inserts, later writes win) must give the same root.
  const oneBatch = new SparseMerkleTree(new InMemorySmtNodeStore(), keyLength).update(
    EMPTY,
    [...input.keys, ...input.deleteKeys].map(hex),
    [...input.values.map(hex), ...input.deleteKeys.map(() => EMPTY)],
  );
  expect(toHex(oneBatch.root)).toBe(toHex(deleted.root));
  return { tree, root: deleted.root };
}

function proofToJson(proof: SmtProof): ProofJson {
  return {
    siblingHashes: proof.siblingHashes.map(toHex),
    queries: proof.queries.map((query) => ({ bitmap: toHex(query.bitmap), key: toHex(query.key), value: toHex(query.value) })),
  };
}

function proofFromJson(proof: ProofJson): SmtProof {
  return {
    siblingHashes: proof.siblingHashes.map(hex),
    queries: proof.queries.map((query) => ({ bitmap: hex(query.bitmap), key: hex(query.key), value: hex(query.value) })),
  };
}

/** A copy of `proof` with one byte of its first sibling hash flipped. */
function withTamperedSibling(proof: SmtProof): SmtProof {
  const siblingHashes = proof.siblingHashes.map((hash) => Buffer.from(hash));
  (siblingHashes[0] as Buffer)[0] ^= 0x01;
  return { siblingHashes, queries: proof.queries };
}

for (const name of ['smt_fixtures.json', 'update_tree.json']) {
  describe(`merkle/smt/${name}`, () => {
    const file = `merkle/smt/${name}`;
    const data = loadJsonFixture<GeneratorFile<SmtInput, SmtOutput>>(file);
    expect(data.testCases).toHaveLength(name === 'smt_fixtures.json' ? 128 : 256);
    forEachCase(file, data.testCases, ({ input, output }) => {
      expect(toHex(buildTree(input).root)).toBe(output.merkleRoot);
    });
  });
}

describe('merkle/smt/remove_extra_tree.json', () => {
  const file = 'merkle/smt/remove_extra_tree.json';
  const data = loadJsonFixture<GeneratorFile<SmtInput, SmtOutput>>(file);
  expect(data.testCases).toHaveLength(236);
  forEachCase(file, data.testCases, ({ input, output }) => {
    const { tree, root } = buildTree(input);
    expect(toHex(root)).toBe(output.merkleRoot);
    expect(proofToJson(tree.prove(root, (input.queryKeys ?? []).map(hex)))).toEqual(output.proof);
  });
});

describe('merkle/smt/smt_proof_fixtures.json', () => {
  const file = 'merkle/smt/smt_proof_fixtures.json';
  const data = loadJsonFixture<GeneratorFile<SmtInput, SmtOutput>>(file);
  expect(data.testCases).toHaveLength(128);
  forEachCase(file, data.testCases, ({ input, output }) => {
    const { tree, root } = buildTree(input);
    expect(toHex(root)).toBe(output.merkleRoot);
    const queryKeys = (input.queryKeys ?? []).map(hex);
    const proof = tree.prove(root, queryKeys);
    expect(proofToJson(proof)).toEqual(output.proof);
    const stored = proofFromJson(output.proof as ProofJson);
    expect(verify(queryKeys, stored, root, 32)).toBe(true);
    expect(verifyInclusionProof(queryKeys, stored, root, 32)).toBe(true);
    expect(verifyNonInclusionProof(queryKeys, stored, root, 32)).toBe(false);
    expect(toHex(calculateRoot(stored))).toBe(output.merkleRoot);
    if (stored.siblingHashes.length > 0) expect(verify(queryKeys, withTamperedSibling(stored), root, 32)).toBe(false);
  });
});

describe('merkle/smt/smt_non_inclusion_proof_fixtures.json', () => {
  const file = 'merkle/smt/smt_non_inclusion_proof_fixtures.json';
  const data = loadJsonFixture<GeneratorFile<SmtInput, SmtOutput>>(file);
  expect(data.testCases).toHaveLength(63);
  forEachCase(file, data.testCases, ({ input, output }) => {
    const { tree, root } = buildTree(input);
    expect(toHex(root)).toBe(output.merkleRoot);
    const queryKeys = (input.queryKeys ?? []).map(hex);
    const proof = tree.prove(root, queryKeys);
    expect(proofToJson(proof)).toEqual(output.proof);
    const stored = proofFromJson(output.proof as ProofJson);
    expect(verify(queryKeys, stored, root, 32)).toBe(true);
    expect(toHex(calculateRoot(stored))).toBe(output.merkleRoot);

    // Each query proves exactly what the tree holds for its key.
    const present = queryKeys.map((key) => tree.get(root, key) !== undefined);
    stored.queries.forEach((query, i) => {
      expect(isInclusionProofForQueryKey(queryKeys[i] as Buffer, query)).toBe(present[i]);
    });
    expect(verifyInclusionProof(queryKeys, stored, root, 32)).toBe(present.every(Boolean));
    expect(verifyNonInclusionProof(queryKeys, stored, root, 32)).toBe(present.every((p) => !p));
    if (stored.siblingHashes.length > 0) expect(verify(queryKeys, withTamperedSibling(stored), root, 32)).toBe(false);
  });
});

describe('merkle/smt/rust_smt_vectors.json', () => {
  const file = 'merkle/smt/rust_smt_vectors.json';
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
  const data = loadJsonFixture<{ trees: Tree[]; proofs: Proof[] }>(file);
  expect(data.trees).toHaveLength(4);
  expect(data.proofs).toHaveLength(3);
  let ran = 0;
  afterAll(() => recordCases(file, ran));

  data.trees.forEach((vector) => {
    it(`tree ${vector.name}`, () => {
      expect(toHex(buildTree({ ...vector, deleteKeys: [] }).root)).toBe(vector.root);
      ran += 1;
    });
  });
  data.proofs.forEach((vector, i) => {
    it(`proof ${vector.name} #${i}`, () => {
      const { tree, root } = buildTree({ ...vector, deleteKeys: [] });
      expect(toHex(root)).toBe(vector.root);
      const queryKeys = vector.queryKeys.map(hex);
      const proof = tree.prove(root, queryKeys);
      expect(proofToJson(proof)).toEqual({ siblingHashes: vector.siblingHashes, queries: vector.queries });
      expect(verifyInclusionProof(queryKeys, proof, root, 32)).toBe(true);
      expect(toHex(calculateRoot(proof))).toBe(vector.root);
      ran += 1;
    });
  });
});

describe('merkle/smt/rust_smt_remove_keys_vectors.json', () => {
  const file = 'merkle/smt/rust_smt_remove_keys_vectors.json';
  interface Case {
    name: string;
    keys: string[];
    values: string[];
    root: string;
    queryKeys: string[];
    siblingHashes: string[];
  }
  const data = loadJsonFixture<{ keyLength: number; cases: Case[] }>(file);
  expect(data.keyLength).toBe(32);
  expect(data.cases).toHaveLength(4);
  forEachCase(
    file,
    data.cases.map((c) => ({ ...c, description: c.name })),
    (vector) => {
      const { tree, root } = buildTree({ ...vector, deleteKeys: [] });
      expect(toHex(root)).toBe(vector.root);
      const queryKeys = vector.queryKeys.map(hex);
      const proof = tree.prove(root, queryKeys);
      expect(proof.siblingHashes.map(toHex)).toEqual(vector.siblingHashes);
      expect(verifyInclusionProof(queryKeys, proof, root, 32)).toBe(true);

      // Upstream: drop the first floor(n/2) keys; the reduced proof must verify for the rest.
      const cut = Math.floor(queryKeys.length / 2);
      const reduced = removeKeysFromProof(proof, queryKeys.slice(0, cut));
      const remaining = queryKeys.slice(cut);
      expect(reduced.queries.map((query) => toHex(query.key))).toEqual(vector.queryKeys.slice(cut));
      expect(verifyInclusionProof(remaining, reduced, root, 32)).toBe(true);
      // It is exactly the proof the tree gives for the remaining keys.
      expect(proofToJson(reduced)).toEqual(proofToJson(tree.prove(root, remaining)));
    },
  );
});

describe('the event SMT example of docs/protocol/state-and-events.md', () => {
  const sha = (data: Buffer): Buffer => createHash('sha256').update(data).digest();
  const txId = hex('1ba36042c1303e116a782a5108065c27bc89d7ba198097ed344a32567477c250');
  const address = hex('ed629c34f72e276ba38be61b6f289f84627f2b81');
  const txTopic = Buffer.concat([Buffer.from([0x04]), txId]);
  const transferEvent = Buffer.concat([
    hex('0a05746f6b656e120d7472616e736665724576656e741a020a142221'),
    txTopic,
    hex('2214'),
    address,
    hex('28013003'),
  ]);
  const resultEvent = Buffer.concat([
    hex('0a05746f6b656e1216636f6d6d616e64457865637574696f6e526573756c741a0208012221'),
    txTopic,
    hex('28013004'),
  ]);
  /** LIP 0065: key = H(topic)[0..8) ‖ uint32be((index << 2) + topic position), value = H(event). */
  const leaf = (topic: Buffer, index: number, position: number, event: Buffer) => {
    const key = Buffer.alloc(12);
    sha(topic).copy(key, 0, 0, 8);
    key.writeUInt32BE((index << 2) + position, 8);
    return { key, value: sha(event) };
  };
  const leaves = [leaf(txTopic, 3, 0, transferEvent), leaf(address, 3, 1, transferEvent), leaf(txTopic, 4, 0, resultEvent)];
  const root = 'a4b34ef944c218d17e68da26bd3ebf003741a292233b06bf9013aa643804c98f';

  it('leaves', () => {
    expect(leaves.map(({ key, value }) => [toHex(key), toHex(value)])).toEqual([
      ['e84c06b8b83f51d00000000c', 'd5208e3e24e51372959003ae4b66dbfa295fdceb6406836532c6d07b284b40ae'],
      ['4ef2994d9263b9a90000000d', 'd5208e3e24e51372959003ae4b66dbfa295fdceb6406836532c6d07b284b40ae'],
      ['e84c06b8b83f51d000000010', 'fea71b2334fd8a9318c043e55775a2c3972315ea10a10d504e19eaf847ee56ea'],
    ]);
  });

  it('event root', () => {
    expect(toHex(computeEventRoot(leaves))).toBe(root);
    expect(toHex(computeEventRoot([...leaves].reverse()))).toBe(root);
  });

  const store = new InMemorySmtNodeStore();
  const tree = new SparseMerkleTree(store, 12);
  store.apply(tree.updateEntries(EMPTY, leaves));

  it('inclusion proof', () => {
    const queryKeys = [hex('e84c06b8b83f51d00000000c')];
    const proof = tree.prove(hex(root), queryKeys);
    expect(proofToJson(proof)).toEqual({
      siblingHashes: [
        'd1948f38318ebd9096bb33f18e1a21dba2bc8d2c58c3f46acf3bcb31b273d577',
        '0b763435153afca86a774fead5158f333784f5d35e622084aa5f65b867a03526',
      ],
      queries: [
        {
          key: 'e84c06b8b83f51d00000000c',
          value: 'd5208e3e24e51372959003ae4b66dbfa295fdceb6406836532c6d07b284b40ae',
          bitmap: '080000000000000000000001',
        },
      ],
    });
    expect(verifyInclusionProof(queryKeys, proof, hex(root), 12)).toBe(true);
  });

  it('non-inclusion proof', () => {
    const queryKeys = [hex('000000000000000000000000')];
    const proof = tree.prove(hex(root), queryKeys);
    expect(proofToJson(proof)).toEqual({
      siblingHashes: ['9c405382df24f5b43ff2736ae3a4d31c389f763840f0602d7e4b6c3c66073e06'],
      queries: [
        {
          key: '4ef2994d9263b9a90000000d',
          value: 'd5208e3e24e51372959003ae4b66dbfa295fdceb6406836532c6d07b284b40ae',
          bitmap: '01',
        },
      ],
    });
    expect(verifyNonInclusionProof(queryKeys, proof, hex(root), 12)).toBe(true);
    expect(verifyInclusionProof(queryKeys, proof, hex(root), 12)).toBe(false);
  });
});
