import { bytesEqual } from '../bytes.js';
import { EMPTY_HASH } from '../hash.js';

const FIRST_BYTE = EMPTY_HASH[0] as number;

/**
 * True for the hash of an empty SMT node. Checks identity and the first byte before comparing
 * all 32 bytes, because nearly every hash on a tree walk is not empty.
 */
export function isEmptyHash(hash: Uint8Array): boolean {
  return hash === EMPTY_HASH || (hash[0] === FIRST_BYTE && bytesEqual(hash, EMPTY_HASH));
}

/** `root` as the tree sees it: lisk-db accepts empty bytes for the empty tree. */
export function normalizeRoot(root: Uint8Array): Buffer {
  if (root.length === 0) return EMPTY_HASH;
  return Buffer.isBuffer(root) ? root : Buffer.from(root.buffer, root.byteOffset, root.byteLength);
}
