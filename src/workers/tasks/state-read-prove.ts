/**
 * Worker task: state_prove (rpc.md §3.4) for many query keys: each key walks up to 38 bytes'
 * worth of SMT levels through LMDB, so a long list is better spent off the main thread. The
 * snapshot holds the tip the request was made at, and block and state are committed in one LMDB
 * transaction, so the committed root here is that tip's stateRoot.
 */
import { stateProofJsonText } from './chain-read-proofs.js';
import type { WorkerTask } from '../task-registry.js';
import { viewAtTip, type ReadTip } from './chain-read-env.js';
import type { ChainReadJsonOutput } from './chain-read-event-proof.js';

export interface StateReadProveInput {
  readonly dataPath: string;
  readonly tip: ReadTip;
  /** 38-byte SMT keys, hex. */
  readonly queryKeys: readonly string[];
}

export const stateReadProve: WorkerTask<StateReadProveInput, ChainReadJsonOutput> = {
  name: 'state-read-prove',
  run(input: StateReadProveInput): ChainReadJsonOutput {
    const view = viewAtTip(input.dataPath, input.tip);
    if (view === undefined) return { stale: true };
    const proof = view.stateDb.prove(input.queryKeys.map(key => Buffer.from(key, 'hex')));
    return { stale: false, json: stateProofJsonText(proof) };
  },
};
