/**
 * Worker task: chain_proveEvents. Rebuilding a block's event tree is SHA-256 work
 * that grows with the block's events (the main thread does no bulk hashing), so the
 * main thread sends every event proof here when it has a pool.
 */
import { eventProofJsonText } from '../../chain/json/proof-json.js';
import type { WorkerTask } from '../worker-task.js';
import { viewAtTip, type ReadTip } from './chain-read-env.js';

export interface ChainReadEventProofInput {
  readonly dataPath: string;
  readonly tip: ReadTip;
  /** A stored height at or below `tip.height` (the main thread checked the bounds). */
  readonly height: number;
  /** 12-byte event keys, hex. */
  readonly queries: readonly string[];
}

/** `stale`: the tip was reverted after the request was sent; the main thread reads again. */
export type ChainReadJsonOutput = { readonly stale: true } | { readonly stale: false; readonly json: string };

export const chainReadEventProof: WorkerTask<ChainReadEventProofInput, ChainReadJsonOutput> = {
  name: 'chain-read-event-proof',
  run(input: ChainReadEventProofInput): ChainReadJsonOutput {
    const view = viewAtTip(input.dataPath, input.tip);
    if (view === undefined) return { stale: true };
    if (input.height > input.tip.height) throw new RangeError(`Height ${input.height} is above the request's tip ${input.tip.height}.`);
    // Pruned events prove against an empty tree, as the main thread answers (chain_getEvents: []).
    const events = view.chainStore.getEvents(input.height) ?? [];
    return { stale: false, json: eventProofJsonText(events, input.queries) };
  },
};
