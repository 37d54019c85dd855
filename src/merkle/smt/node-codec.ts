/**
 * Storage encoding of SMT nodes (Basalt's own; hashes follow LIP 0039).
 * Nodes are stored under their hash. Empty nodes are never stored: EMPTY_HASH stands for them.
 *
 *   leaf:   0x00 ‖ key ‖ value        (key length is fixed per tree, value is the rest)
 *   branch: 0x01 ‖ leftHash ‖ rightHash
 *
 * The leaf keeps the value itself, not its hash, because proofs must return it.
 */
import { HASH_LENGTH } from '../hash.js';

export const LEAF_TAG = 0x00;
export const BRANCH_TAG = 0x01;
export const BRANCH_NODE_LENGTH = 1 + 2 * HASH_LENGTH;

export function encodeLeafNode(key: Uint8Array, value: Uint8Array): Buffer {
  const data = Buffer.allocUnsafe(1 + key.length + value.length);
  data[0] = LEAF_TAG;
  data.set(key, 1);
  data.set(value, 1 + key.length);
  return data;
}

export function encodeBranchNode(left: Uint8Array, right: Uint8Array): Buffer {
  const data = Buffer.allocUnsafe(BRANCH_NODE_LENGTH);
  data[0] = BRANCH_TAG;
  data.set(left, 1);
  data.set(right, 1 + HASH_LENGTH);
  return data;
}

export function isLeafNode(data: Buffer): boolean {
  return data[0] === LEAF_TAG;
}

export function leafNodeKey(data: Buffer, keyLength: number): Buffer {
  return data.subarray(1, 1 + keyLength);
}

export function leafNodeValue(data: Buffer, keyLength: number): Buffer {
  return data.subarray(1 + keyLength);
}

export function branchNodeLeft(data: Buffer): Buffer {
  return data.subarray(1, 1 + HASH_LENGTH);
}

export function branchNodeRight(data: Buffer): Buffer {
  return data.subarray(1 + HASH_LENGTH, BRANCH_NODE_LENGTH);
}
