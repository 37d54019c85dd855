import { EMPTY_HASH } from '../hash.js';
import { SparseMerkleTree } from './sparse-merkle-tree.js';
import type { SmtEntry, SmtNodeStore } from './types.js';

/** Key length of the event tree (LIP 0065): 8 bytes of H(topic) ‖ uint32 index. */
export const EVENT_KEY_LENGTH = 12;

/** A store with no nodes: building a tree from the empty root never reads one. */
const NO_NODES: SmtNodeStore = { get: () => undefined };

/**
 * Block eventRoot (LIP 0065; docs/protocol/state-and-events.md): the root of a fresh SMT with
 * 12-byte keys holding the given event leaves. The caller builds the leaves (one per event and
 * topic); no leaves give EMPTY_HASH. Nothing is stored: only the root is needed here.
 */
export function computeEventRoot(leaves: readonly SmtEntry[]): Buffer {
  if (leaves.length === 0) return EMPTY_HASH;
  return new SparseMerkleTree(NO_NODES, EVENT_KEY_LENGTH).updateEntries(EMPTY_HASH, leaves).root;
}
