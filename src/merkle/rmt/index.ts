/** Regular Merkle tree (LIP 0031; docs/protocol/merkle-trees.md). */
export { merkleRoot } from './merkle-root.js';
export { MerkleTree } from './merkle-tree.js';
export { generateProof, verifyProof, verifyDataBlock } from './proof.js';
export { calculateRootFromUpdateData } from './update-root.js';
export { calculatePathNodes } from './path-nodes.js';
export { appendToMerkleRoot, appendLeafHash } from './append-path.js';
export { calculateRootFromRightWitness, verifyRightWitness, calculateRightWitness } from './right-witness.js';
export { ROOT_INDEX, toNodeIndex, toNodeLocation, treeHeight, layerSizes } from './tree-shape.js';
export type { NodeLocation } from './tree-shape.js';
export type { MerkleProof, MerkleUpdateProof, AppendState } from './types.js';
