/**
 * Worker task: the whole answer to a peer's getBlocksFromId, in base64, as the main thread would
 * have built it when the request arrived (src/chain/blocks-from-id.ts builds it on both threads).
 * Up to 103 blocks of some 15 kB are read, encoded into one answer and turned into base64 here,
 * not on the network thread. The answer goes back as a string: the main thread sends base64 text
 * anyway, and a string crosses between threads in one copy, where a buffer of bytes would still
 * have to be turned into base64 over there.
 */
import { BLOCKS_PER_ANSWER, encodeBlocksFromIdAnswer, encodedBlocksBetween } from '../../chain/blocks-from-id.js';
import type { WorkerTask } from '../worker-task.js';
import { type ReadTip, viewAtTip } from './chain-read-env.js';

export interface ChainReadBlocksFromIdInput {
  readonly dataPath: string;
  /** The tip when the request arrived: the answer holds no block above it. */
  readonly tip: ReadTip;
  /** The ID the peer asked from. */
  readonly fromId: Uint8Array;
}

/**
 * `stale`: the tip was reverted after the request was sent, so the main thread answers itself;
 * `unknown`: `fromId` is not in the chain at `tip` (the main thread answers that error itself);
 * `answered`: the base64 of the encoded answer.
 */
export type ChainReadBlocksFromIdOutput =
  | { readonly status: 'stale' }
  | { readonly status: 'unknown' }
  | { readonly status: 'answered'; readonly base64: string };

export const chainReadBlocksFromId: WorkerTask<ChainReadBlocksFromIdInput, ChainReadBlocksFromIdOutput> = {
  name: 'chain-read-blocks-from-id',
  run(input: ChainReadBlocksFromIdInput): ChainReadBlocksFromIdOutput {
    const { tip, fromId } = input;
    const view = viewAtTip(input.dataPath, tip);
    if (view === undefined) return { status: 'stale' };
    const height = view.chainStore.getHeightById(Buffer.from(fromId.buffer, fromId.byteOffset, fromId.byteLength));
    // A block stored after the request was sent is not in the chain the request saw.
    if (height === undefined || height > tip.height) return { status: 'unknown' };
    // Blocks up to the tip are the ones the request saw (viewAtTip: the tip is still stored).
    const blocks = encodedBlocksBetween(view.chainStore, height + 1, Math.min(height + BLOCKS_PER_ANSWER, tip.height));
    return { status: 'answered', base64: encodeBlocksFromIdAnswer(blocks).toString('base64') };
  },
};
