/**
 * Proofs as the RPC answers them (chain_proveEvents, state_prove; lisk-sdk engine/endpoint/chain.ts
 * and state.ts). Shared by the main-thread endpoints and the chain-read worker tasks, so both give
 * the same text; in the chain room, below both, so that neither imports the other for it.
 */
import { eventSmtLeaves, type EventProps } from '../event.js';
import { EMPTY_HASH, EVENT_KEY_LENGTH, InMemorySmtNodeStore, SparseMerkleTree, type SmtProof } from '../../merkle/index.js';

/** A sparse Merkle multiproof as the RPC shows it (ProofJSON), keys in lisk's order. */
export interface ProofJSON {
  queries: { bitmap: string; key: string; value: string }[];
  siblingHashes: string[];
}

/** The JSON form of an SMT multiproof : every byte string as hex. */
export function smtProofToJSON(proof: SmtProof): ProofJSON {
  return {
    queries: proof.queries.map((query) => ({
      bitmap: query.bitmap.toString('hex'),
      key: query.key.toString('hex'),
      value: query.value.toString('hex'),
    })),
    siblingHashes: proof.siblingHashes.map((hash) => hash.toString('hex')),
  };
}

/**
 * Multiproof for `queryKeys` in the event tree of one block (`chain_proveEvents`;
 * LIP 0065): the tree is rebuilt from the block's events, whose root is the
 * header's eventRoot, then proved like any SMT. Query keys are 12-byte event keys
 * (8 bytes of H(topic) ‖ uint32be(index << 2 + topic index)); a key of another length throws
 * FormatError.
 */
export function proveEvents(events: readonly EventProps[], queryKeys: readonly Uint8Array[]): SmtProof {
  const leaves = events.flatMap((event) => eventSmtLeaves(event));
  const store = new InMemorySmtNodeStore();
  const tree = new SparseMerkleTree(store, EVENT_KEY_LENGTH);
  // The tree object never writes: keep the nodes of the new root so that `prove` can walk them.
  const update = tree.updateEntries(EMPTY_HASH, leaves);
  store.apply(update);
  return tree.prove(update.root, queryKeys);
}

/** chain_proveEvents' answer text (no `proof` wrapper, as lisk-sdk). */
export function eventProofJsonText(events: readonly EventProps[], queriesHex: readonly string[]): string {
  return JSON.stringify(
    smtProofToJSON(
      proveEvents(
        events,
        queriesHex.map((query) => Buffer.from(query, 'hex')),
      ),
    ),
  );
}

/** state_prove's answer text: `{proof: ProofJSON}`. */
export function stateProofJsonText(proof: SmtProof): string {
  return JSON.stringify({ proof: smtProofToJSON(proof) });
}
