/**
 * Every hash the merkle room computes goes through this file. SHA-256 itself comes from
 * src/crypto/sha256.ts, which takes the native addon when it is loaded; tree code never calls
 * node:crypto itself.
 *
 * The prefixed hashes copy their inputs into one reusable scratch buffer instead of allocating a
 * concatenation per call: trees spend nearly all their time here (DESIGN.md, performance notes).
 * This is safe because hashing is synchronous and JavaScript runs one call at a time.
 */
import { sha256 } from '../crypto/sha256.js';

// EMPTY_HASH, SHA-256 of the empty string, is the root of an empty RMT or SMT and the hash of an
// empty SMT node.
export { EMPTY_HASH, sha256 } from '../crypto/sha256.js';

/** Length in bytes of every node hash. */
export const HASH_LENGTH = 32;

/** LIP 0031 node prefixes. */
const RMT_LEAF_PREFIX = 0x00;
const RMT_BRANCH_PREFIX = 0x01;

/** LIP 0039 node prefixes as lisk-db uses them (protocol.md §6.2.1). */
const SMT_LEAF_PREFIX = Buffer.from('LSK_SMTL_', 'ascii');
const SMT_BRANCH_PREFIX = Buffer.from('LSK_SMTB_', 'ascii');

let scratch = Buffer.allocUnsafe(1024);

/** The scratch buffer, grown (never shrunk) to hold at least `length` bytes. */
function scratchOf(length: number): Buffer {
  if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, scratch.length * 2));
  return scratch;
}

/** RMT leaf hash `H(0x00 ‖ data)` (LIP 0031, protocol.md §6.1). */
export function leafHash(data: Uint8Array): Buffer {
  const buf = scratchOf(1 + data.length);
  buf[0] = RMT_LEAF_PREFIX;
  buf.set(data, 1);
  return sha256(buf.subarray(0, 1 + data.length));
}

/** RMT branch hash `H(0x01 ‖ left ‖ right)` (LIP 0031, protocol.md §6.1). */
export function branchHash(left: Uint8Array, right: Uint8Array): Buffer {
  const length = 1 + left.length + right.length;
  const buf = scratchOf(length);
  buf[0] = RMT_BRANCH_PREFIX;
  buf.set(left, 1);
  buf.set(right, 1 + left.length);
  return sha256(buf.subarray(0, length));
}

/** SMT leaf hash `H("LSK_SMTL_" ‖ key ‖ value)` (LIP 0039, protocol.md §6.2.2). */
export function smtLeafHash(key: Uint8Array, value: Uint8Array): Buffer {
  const prefixLength = SMT_LEAF_PREFIX.length;
  const length = prefixLength + key.length + value.length;
  const buf = scratchOf(length);
  SMT_LEAF_PREFIX.copy(buf, 0);
  buf.set(key, prefixLength);
  buf.set(value, prefixLength + key.length);
  return sha256(buf.subarray(0, length));
}

/** SMT branch hash `H("LSK_SMTB_" ‖ leftHash ‖ rightHash)` (LIP 0039, protocol.md §6.2.2). */
export function smtBranchHash(left: Uint8Array, right: Uint8Array): Buffer {
  const prefixLength = SMT_BRANCH_PREFIX.length;
  const length = prefixLength + left.length + right.length;
  const buf = scratchOf(length);
  SMT_BRANCH_PREFIX.copy(buf, 0);
  buf.set(left, prefixLength);
  buf.set(right, prefixLength + left.length);
  return sha256(buf.subarray(0, length));
}
