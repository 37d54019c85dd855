/**
 * Regular Merkle tree properties (LIP 0031): every way of building the tree gives the same root,
 * generated proofs verify and altered ones do not, leaf updates and right witnesses agree with a
 * tree rebuilt from scratch.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MerkleTree,
  appendToMerkleRoot,
  calculateRightWitness,
  calculateRootFromRightWitness,
  calculateRootFromUpdateData,
  generateProof,
  layerSizes,
  merkleRoot,
  toNodeIndex,
  treeHeight,
  verifyDataBlock,
  verifyProof,
  verifyRightWitness,
} from '../../../src/merkle/rmt/index.js';
import type { MerkleProof } from '../../../src/merkle/rmt/index.js';
import { buildLayers } from '../../../src/merkle/rmt/layers.js';
import { EMPTY_HASH, leafHash } from '../../../src/merkle/hash.js';

const RUNS = 300;
const sha = (...parts: Uint8Array[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest();

/** LIP 0031 "Merkle Root" written out directly, as the reference. */
function referenceRoot(leaves: Uint8Array[]): Buffer {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return sha(Buffer.from([0]), leaves[0] as Uint8Array);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Buffer.from([1]), referenceRoot(leaves.slice(0, k)), referenceRoot(leaves.slice(k)));
}

const leavesArb = (minLength = 0) => fc.array(fc.uint8Array({ maxLength: 8 }), { minLength, maxLength: 70 });

/** Leaves plus a non-empty set of distinct positions in random order. */
const leavesWithQueryArb = leavesArb(1).chain((leaves) =>
  fc.tuple(
    fc.constant(leaves),
    fc.shuffledSubarray(
      leaves.map((_, i) => i),
      { minLength: 1 },
    ),
  ),
);

const copyProof = (proof: MerkleProof): { size: number; idxs: number[]; siblingHashes: Buffer[] } => ({
  size: proof.size,
  idxs: [...proof.idxs],
  siblingHashes: proof.siblingHashes.map((hash) => Buffer.from(hash)),
});

describe('RMT root', () => {
  it('is EMPTY_HASH for no leaves and the leaf hash for one', () => {
    expect(merkleRoot([]).equals(EMPTY_HASH)).toBe(true);
    expect(new MerkleTree().root.equals(EMPTY_HASH)).toBe(true);
    expect(merkleRoot([Buffer.from('ab', 'hex')]).equals(sha(Buffer.from('00ab', 'hex')))).toBe(true);
  });

  it('is the same whether computed directly, appended one by one, or built from all leaves', () => {
    fc.assert(
      fc.property(leavesArb(), (leaves) => {
        const expected = referenceRoot(leaves);
        expect(merkleRoot(leaves).equals(expected)).toBe(true);

        const appended = new MerkleTree();
        let state = { root: EMPTY_HASH, appendPath: [] as readonly Buffer[], size: 0 };
        for (const leaf of leaves) {
          appended.append(leaf);
          state = appendToMerkleRoot(leaf, state.appendPath, state.size);
          expect(appended.root.equals(state.root)).toBe(true);
        }
        const built = MerkleTree.fromLeaves(leaves);
        expect(appended.root.equals(expected)).toBe(true);
        expect(built.root.equals(expected)).toBe(true);
        expect(appended.size).toBe(leaves.length);
        expect(built.appendPath.map((h) => h.toString('hex'))).toEqual(appended.appendPath.map((h) => h.toString('hex')));
        expect(state.appendPath.map((h) => h.toString('hex'))).toEqual(built.appendPath.map((h) => h.toString('hex')));
      }),
      { numRuns: RUNS },
    );
  });

  it('stores exactly the layer sizes LIP 0031 derives from the size', () => {
    for (let size = 1; size <= 300; size += 1) {
      const layers = buildLayers(Array.from({ length: size }, (_, i) => leafHash(Buffer.from([i & 0xff]))));
      expect(layers.map((layer) => layer.length)).toEqual(layerSizes(size));
      expect(layers).toHaveLength(treeHeight(size));
    }
    expect(layerSizes(13)).toEqual([13, 6, 3, 2, 1]);
  });
});

describe('RMT inclusion proofs', () => {
  it('verify for any set of leaves, and fail once altered', () => {
    fc.assert(
      fc.property(leavesWithQueryArb, fc.nat(), ([leaves, positions], pick) => {
        const root = merkleRoot(leaves);
        const proof = generateProof(leaves, positions);
        const queried = positions.map((i) => leaves[i] as Uint8Array);
        expect(proof.size).toBe(leaves.length);
        expect(verifyDataBlock(queried, proof, root)).toBe(true);
        expect(MerkleTree.fromLeaves(leaves).generateLeafProof(positions)).toEqual(proof);

        // A different query value.
        const changedData = queried.map((data) => Buffer.from(data));
        const victim = pick % changedData.length;
        changedData[victim] = Buffer.concat([changedData[victim] as Buffer, Buffer.from([pick & 0xff])]);
        expect(verifyDataBlock(changedData, proof, root)).toBe(false);

        if (proof.siblingHashes.length > 0) {
          const flipped = copyProof(proof);
          const at = pick % flipped.siblingHashes.length;
          (flipped.siblingHashes[at] as Buffer)[pick % 32] ^= 0x80;
          expect(verifyDataBlock(queried, flipped, root)).toBe(false);

          const dropped = copyProof(proof);
          dropped.siblingHashes.splice(pick % dropped.siblingHashes.length, 1);
          expect(verifyDataBlock(queried, dropped, root)).toBe(false);
        }
        // Another leaf's index.
        if (leaves.length > 1) {
          const moved = copyProof(proof);
          const height = treeHeight(leaves.length);
          const other = ((positions[0] as number) + 1 + (pick % (leaves.length - 1))) % leaves.length;
          if (!positions.includes(other) && !leaves[other]?.every((b, i) => b === queried[0]?.[i])) {
            moved.idxs[0] = toNodeIndex(other, 0, height);
            expect(verifyDataBlock(queried, moved, root)).toBe(false);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('verify for branch nodes queried by hash, as lisk-tree allows', () => {
    fc.assert(
      fc.property(leavesArb(2), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (leaves, picks) => {
        const tree = MerkleTree.fromLeaves(leaves);
        const layers = buildLayers(leaves.map((leaf) => leafHash(leaf)));
        const nodes = layers.flat();
        // Distinct hashes (equal leaves share a hash, which then names the last such leaf).
        const byHex = new Map(picks.map((p) => nodes[p % nodes.length] as Buffer).map((h) => [h.toString('hex'), h]));
        const queries = [...byHex.values()];
        const proof = tree.generateProof(queries);
        expect(proof.idxs.every((index) => index > 0)).toBe(true);
        expect(verifyProof(queries, proof, tree.root)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('give index 0 to unknown hashes and handle the empty tree', () => {
    const tree = MerkleTree.fromLeaves([Buffer.from([1]), Buffer.from([2])]);
    expect(tree.generateProof([Buffer.alloc(32, 7)]).idxs).toEqual([0]);
    expect(new MerkleTree().generateProof([Buffer.alloc(32)])).toEqual({ size: 0, idxs: [], siblingHashes: [] });
    expect(verifyProof([], { size: 0, idxs: [], siblingHashes: [] }, EMPTY_HASH)).toBe(false);
  });
});

const freshValuesArb = fc.array(fc.uint8Array({ maxLength: 8 }), { minLength: 70, maxLength: 70 });
const toHexList = (hashes: readonly Buffer[]): string[] => hashes.map((hash) => hash.toString('hex'));

describe('RMT leaf updates', () => {
  it('give the root of the tree rebuilt with the new values', () => {
    fc.assert(
      fc.property(leavesWithQueryArb, freshValuesArb, ([leaves, positions], fresh) => {
        const tree = MerkleTree.fromLeaves(leaves);
        const height = treeHeight(leaves.length);
        const indexes = positions.map((position) => toNodeIndex(position, 0, height));
        const updateValues = positions.map((_, i) => fresh[i] as Uint8Array);
        const updated: Uint8Array[] = leaves.slice();
        positions.forEach((position, i) => {
          updated[position] = updateValues[i] as Uint8Array;
        });
        const expected = referenceRoot(updated);
        const siblingHashes = tree.getSiblingHashes(indexes);
        const proof = { size: leaves.length, indexes, siblingHashes };
        expect(calculateRootFromUpdateData(updateValues, proof).equals(expected)).toBe(true);
        expect(tree.update(indexes, updateValues).equals(expected)).toBe(true);
        expect(tree.root.equals(expected)).toBe(true);
        expect(toHexList(tree.appendPath)).toEqual(toHexList(MerkleTree.fromLeaves(updated).appendPath));
      }),
      { numRuns: RUNS },
    );
  });

  it('reject malformed inputs', () => {
    expect(() => calculateRootFromUpdateData([], { size: 0, indexes: [], siblingHashes: [] })).toThrow();
    expect(() => calculateRootFromUpdateData([Buffer.alloc(1)], { size: 4, indexes: [8, 9], siblingHashes: [] })).toThrow();
    expect(() => calculateRootFromUpdateData([Buffer.alloc(1)], { size: 4, indexes: [8], siblingHashes: [] })).toThrow();
  });
});

describe('RMT right witness', () => {
  it('joins the append path of a prefix to the root of the whole tree', () => {
    fc.assert(
      fc.property(leavesArb(1), fc.nat(), (leaves, pick) => {
        const tree = MerkleTree.fromLeaves(leaves);
        const idx = pick % (leaves.length + 1);
        const prefix = MerkleTree.fromLeaves(leaves.slice(0, idx));
        const witness = tree.generateRightWitness(idx);
        expect(verifyRightWitness(idx, prefix.appendPath, witness, tree.root)).toBe(true);
        expect(calculateRootFromRightWitness(idx, prefix.appendPath, witness).equals(tree.root)).toBe(true);
        if (idx > 0) {
          expect(toHexList(calculateRightWitness(idx, leaves.slice(idx)))).toEqual(toHexList(witness));
        }
        if (witness.length > 0) {
          const altered = witness.map((h) => Buffer.from(h));
          (altered[pick % altered.length] as Buffer)[0] ^= 1;
          expect(verifyRightWitness(idx, prefix.appendPath, altered, tree.root)).toBe(false);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('rejects out-of-range indexes and empty trees', () => {
    expect(() => MerkleTree.fromLeaves([Buffer.alloc(1)]).generateRightWitness(2)).toThrow();
    expect(() => calculateRightWitness(0, [Buffer.alloc(1)])).toThrow();
    expect(calculateRightWitness(3, [])).toEqual([]);
    expect(verifyRightWitness(0, [], [], EMPTY_HASH)).toBe(false);
  });
});
