/**
 * Worker task: state_prove for many query keys. The state tree lives in the main
 * thread's native memory (src/state/state-tree.ts); this thread attaches to that same store by
 * its share id and builds the proof and its JSON here, so the main thread only forwards text.
 *
 * The request carries the committed root the main thread saw. The store keeps the current tree,
 * and while a block's transaction is being written the nodes of the root before it too
 * (StateTree.advance): if blocks were committed since, the old root's nodes may be gone, the proof
 * fails on a missing node, and the answer is "stale" (the main thread then proves against its tree
 * as it is).
 * A proof that completes is exact for that root, since nodes are addressed by their hash.
 */
import { NotFoundError } from '../../errors.js';
import { STATE_KEY_LENGTH } from '../../merkle/index.js';
import type { WorkerTask } from '../worker-task.js';
import { stateProofJsonText } from '../../chain/json/proof-json.js';
import { sharedTree } from './shared-tree.js';
import type { ChainReadJsonOutput } from './chain-read-event-proof.js';

export interface StateReadProveInput {
  /** StateDb.treeShareId() of the node's state tree. */
  readonly treeId: number;
  /** The committed state root when the request arrived, hex. */
  readonly root: string;
  /** 38-byte SMT keys, hex. */
  readonly queryKeys: readonly string[];
}

export const stateReadProve: WorkerTask<StateReadProveInput, ChainReadJsonOutput> = {
  name: 'state-read-prove',
  run(input: StateReadProveInput): ChainReadJsonOutput {
    const tree = sharedTree(input.treeId, STATE_KEY_LENGTH);
    if (tree === undefined) return { stale: true };
    try {
      const proof = tree.prove(
        Buffer.from(input.root, 'hex'),
        input.queryKeys.map((key) => Buffer.from(key, 'hex')),
      );
      return { stale: false, json: stateProofJsonText(proof) };
    } catch (error) {
      if (error instanceof NotFoundError) return { stale: true };
      throw error;
    }
  },
};
