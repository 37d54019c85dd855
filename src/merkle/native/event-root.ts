/**
 * Block eventRoot (LIP 0065; docs/protocol/state-and-events.md) with the native SMT when the addon
 * is loaded.
 *
 * A full block emits hundreds of events, each one leaf per topic, and their tree is built from
 * scratch for every block, generated or received: in TypeScript that was a third of the time a
 * block of transfers took to apply (bench block-apply profile). The root is the same either way
 * (test/unit/native compares the trees on the fixtures and on random batches).
 */
import { EMPTY_HASH } from '../hash.js';
import { computeEventRoot as computeEventRootTs, EVENT_KEY_LENGTH, type SmtEntry, type SmtNodeStore } from '../smt/index.js';
import { nativeAddon } from '../../native/addon.js';
import { NativeSparseMerkleTree } from './native-sparse-merkle-tree.js';

/** A store with no nodes: a tree built from the empty root never reads one. */
const NO_NODES: SmtNodeStore = { get: () => undefined };

export function computeEventRoot(leaves: readonly SmtEntry[]): Buffer {
  if (nativeAddon === undefined) return computeEventRootTs(leaves);
  if (leaves.length === 0) return EMPTY_HASH;
  return Buffer.from(new NativeSparseMerkleTree(NO_NODES, EVENT_KEY_LENGTH, nativeAddon).updateEntries(EMPTY_HASH, leaves).root);
}
