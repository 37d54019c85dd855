/**
 * Every hash the merkle room computes goes through this file. SHA-256 itself comes from
 * src/crypto/sha256.ts, which takes the native addon when it is loaded; tree code never calls
 * node:crypto itself.
 *
 * The prefixed hashes copy their inputs into one reusable scratch buffer instead of allocating a
 * concatenation per call: trees spend nearly all their time here (bench `smt`).
 * This is safe because hashing is synchronous and JavaScript runs one call at a time.
 */
import { sha256 } from '../crypto/sha256.js';

// EMPTY_HASH, SHA-256 of the empty string, is the root of an empty RMT or SMT and the hash of an
// empty SMT node.
export { EMPTY_HASH, sha256 } from '../crypto/sha256.js';

/** Length in bytes of every node hash. */
export const HASH_LENGTH = 32;

/** LIP 0031 node prefixes. */
const RMT_LEAF_PREFIX = Buffer.of(0x00);
const RMT_BRANCH_PREFIX = Buffer.of(0x01);

/** LIP 0039 node prefixes as lisk-db uses them (docs/protocol/merkle-trees.md). */
const SMT_LEAF_PREFIX = Buffer.from('LSK_SMTL_', 'ascii');
const SMT_BRANCH_PREFIX = Buffer.from('LSK_SMTB_', 'ascii');

let scratch = Buffer.allocUnsafe(1024);

/** The scratch buffer, grown (never shrunk) to hold at least `length` bytes. */
function scratchOf(length: number): Buffer {
  if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, scratch.length * 2));
  return scratch;
}

/** H(prefix ‖ first ‖ second), the inputs copied into the scratch buffer. */
function prefixedHash(prefix: Buffer, first: Uint8Array, second?: Uint8Array): Buffer {
  const secondStart = prefix.length + first.length;
  const length = secondStart + (second?.length ?? 0);
  const buf = scratchOf(length);
  prefix.copy(buf, 0);
  buf.set(first, prefix.length);
  if (second !== undefined) buf.set(second, secondStart);
  return sha256(buf.subarray(0, length));
}

/** RMT leaf hash `H(0x00 ‖ data)` (LIP 0031). */
export function leafHash(data: Uint8Array): Buffer {
  return prefixedHash(RMT_LEAF_PREFIX, data);
}

/** RMT branch hash `H(0x01 ‖ left ‖ right)` (LIP 0031). */
export function branchHash(left: Uint8Array, right: Uint8Array): Buffer {
  return prefixedHash(RMT_BRANCH_PREFIX, left, right);
}

/** SMT leaf hash `H("LSK_SMTL_" ‖ key ‖ value)` (LIP 0039). */
export function smtLeafHash(key: Uint8Array, value: Uint8Array): Buffer {
  return prefixedHash(SMT_LEAF_PREFIX, key, value);
}

/** SMT branch hash `H("LSK_SMTB_" ‖ leftHash ‖ rightHash)` (LIP 0039). */
export function smtBranchHash(left: Uint8Array, right: Uint8Array): Buffer {
  return prefixedHash(SMT_BRANCH_PREFIX, left, right);
}
