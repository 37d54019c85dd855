/**
 * State entries for tests of the state store: raw state keys as modules make them, and the root an
 * independent tree (the TypeScript one, built from scratch) gives a set of entries.
 */
import { randomBytes } from 'node:crypto';
import {
  EMPTY_HASH,
  InMemorySmtNodeStore,
  SparseMerkleTree,
  smtKeyFromStateKey,
  smtValueFromStateValue,
  STATE_KEY_LENGTH,
} from '../../src/merkle/index.js';

/** A raw state key as modules make them: 6-byte store prefix, then the entry's own key. */
export const randomStateKey = (): Buffer => Buffer.concat([Buffer.from('0000000a8000', 'hex'), randomBytes(20)]);

/** The root of `entries` (hex key → value) computed from scratch by the TypeScript tree. */
export function rootOfEntries(entries: Map<string, Buffer>): Buffer {
  if (entries.size === 0) return EMPTY_HASH;
  const keys = [...entries.keys()].map((key) => smtKeyFromStateKey(Buffer.from(key, 'hex')));
  const values = [...entries.values()].map((value) => smtValueFromStateValue(value));
  return new SparseMerkleTree(new InMemorySmtNodeStore(), STATE_KEY_LENGTH).update(EMPTY_HASH, keys, values).root;
}
