/**
 * Basalt as a library: the Lisk v6 protocol core — codec, cryptography, merkle trees and chain
 * objects — byte-exact with lisk-sdk 6.1. Everything else (engine, modules, RPC) is reached
 * through `src/node.ts` and the `basalt` command.
 */
export * from './errors.js';
export * from './codec/index.js';
export * from './crypto/index.js';
export * from './chain/index.js';
export {
  // The merkle room's own sha256/EMPTY_HASH are the same functions the crypto room exports.
  MerkleTree,
  merkleRoot,
  generateProof,
  verifyProof,
  verifyDataBlock,
  calculateRootFromUpdateData,
  calculateRootFromRightWitness,
  verifyRightWitness,
  calculateRightWitness,
  SparseMerkleTree,
  InMemorySmtNodeStore,
  calculateRoot,
  verify as verifySmtProof,
  verifyInclusionProof,
  verifyNonInclusionProof,
  removeKeysFromProof,
  computeEventRoot,
  smtKeyFromStateKey,
  smtValueFromStateValue,
} from './merkle/index.js';
export type { SmtNodeStore, SmtProof, SmtQuery, SmtUpdateResult, MerkleProof } from './merkle/index.js';
