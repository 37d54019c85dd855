import { eventSmtLeaves, type EventProps } from '../../chain/event.js';
import { EMPTY_HASH, EVENT_KEY_LENGTH, InMemorySmtNodeStore, SparseMerkleTree, type SmtProof } from '../../merkle/index.js';

/**
 * Multiproof for `queryKeys` in the event tree of one block (rpc.md §3.2 `chain_proveEvents`;
 * protocol.md §4.3, LIP 0065): the tree is rebuilt from the block's events, whose root is the
 * header's eventRoot, then proved like any SMT. Query keys are 12-byte event keys
 * (8 bytes of H(topic) ‖ uint32be(index << 2 + topic index)); a key of another length throws
 * FormatError.
 */
export function proveEvents(events: readonly EventProps[], queryKeys: readonly Uint8Array[]): SmtProof {
  const leaves = events.flatMap(event => eventSmtLeaves(event));
  const store = new InMemorySmtNodeStore();
  const tree = new SparseMerkleTree(store, EVENT_KEY_LENGTH);
  // The tree object never writes: keep the nodes of the new root so that `prove` can walk them.
  const update = tree.updateEntries(EMPTY_HASH, leaves);
  store.apply(update);
  return tree.prove(update.root, queryKeys);
}
