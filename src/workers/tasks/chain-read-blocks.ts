/**
 * Worker task: the JSON texts of stored blocks by height, for the long
 * chain_getBlocksByHeightBetween spans and chain_getBlocksByIDs lists the main thread does not hold
 * in its cache, so long reads do not stall the network thread. The texts are built by the code the
 * main thread uses (src/chain/json/chain-json-text.ts), so they are its answers byte for byte; the
 * main thread joins them and caches the finalized ones.
 */
import { blockJsonText } from '../../chain/json/chain-json-text.js';
import type { WorkerTask } from '../worker-task.js';
import { viewAtTip, type ReadTip } from './chain-read-env.js';

export interface ChainReadBlocksInput {
  readonly dataPath: string;
  readonly tip: ReadTip;
  /** Heights at or below `tip.height`, in the order of the answer. */
  readonly heights: readonly number[];
}

/** `stale`: the tip was reverted after the request was sent; the main thread reads again. */
export type ChainReadBlocksOutput = { readonly stale: true } | { readonly stale: false; readonly texts: string[] };

export const chainReadBlocks: WorkerTask<ChainReadBlocksInput, ChainReadBlocksOutput> = {
  name: 'chain-read-blocks',
  run(input: ChainReadBlocksInput): ChainReadBlocksOutput {
    const view = viewAtTip(input.dataPath, input.tip);
    if (view === undefined) return { stale: true };
    const texts = input.heights.map((height) => {
      // Above the tip the snapshot may hold blocks the request never saw: never answer them.
      if (height > input.tip.height) throw new RangeError(`Height ${height} is above the request's tip ${input.tip.height}.`);
      return blockJsonText(view.chainStore.getBlockByHeight(height));
    });
    return { stale: false, texts };
  },
};
