/**
 * When a validator may start generating on this node without signing a header that contradicts
 * one it signed before (LIP 0014, lisk-sdk v6.1.0 `framework/src/engine/generator/endpoint.ts`
 * and `framework/src/engine/consensus/consensus.ts` isSynced): the generated info it resumes
 * from must be the one the node holds, and must lie behind the tip; after a shutdown the safe
 * values are estimated from the blocks the validator may have missed.
 */
import type { BlockHeader } from '../../chain/block-header.js';
import type { ChainStore } from '../../chain/chain-store.js';
import { InvalidParamsError, StoreError } from '../../errors.js';
import type { GeneratedInfo } from './generator-store.js';

export const NOT_SYNCED_MESSAGE = 'Failed to enable forging as the node is not synced to the network.';
export const STATUS_MISMATCH_MESSAGE = 'Request does not match last generated information.';
export const NO_STATUS_MESSAGE = 'Last generated information does not exist.';

const SECONDS_PER_MONTH = 60 * 60 * 24 * 30;

/**
 * lisk-sdk Consensus.isSynced: the values a validator resumes from must lie behind the tip
 * (below its maxHeightPrevoted, or equal to it and below its height), so that the node never
 * signs a header contradicting one it signed on a chain it has not seen yet. On the genesis
 * block (version 0) both heights only need to be at most the genesis height.
 */
export function isSyncedWith(tip: BlockHeader, height: number, maxHeightPrevoted: number): boolean {
  if (tip.version === 0) return height <= tip.height && maxHeightPrevoted <= tip.height;
  return maxHeightPrevoted < tip.maxHeightPrevoted || (maxHeightPrevoted === tip.maxHeightPrevoted && height < tip.height);
}

export function sameGeneratedInfo(a: GeneratedInfo, b: GeneratedInfo): boolean {
  return a.height === b.height && a.maxHeightPrevoted === b.maxHeightPrevoted && a.maxHeightGenerated === b.maxHeightGenerated;
}

function isZeroInfo(info: GeneratedInfo): boolean {
  return info.height === 0 && info.maxHeightPrevoted === 0 && info.maxHeightGenerated === 0;
}

/**
 * The operator's claim of what the validator last generated must be what the node holds, or all
 * zeros for a validator the node has no record of; InvalidParamsError otherwise.
 */
export function checkResumedInfo(stored: GeneratedInfo | undefined, requested: GeneratedInfo): void {
  if (stored !== undefined && !sameGeneratedInfo(stored, requested)) throw new InvalidParamsError(STATUS_MISMATCH_MESSAGE);
  if (stored === undefined && !isZeroInfo(requested)) throw new InvalidParamsError(NO_STATUS_MESSAGE);
}

/**
 * The generated info a validator that stopped at `timeShutdown` can safely resume from: the
 * finalized height plus the blocks it may have signed, unseen, in the 30 days before (LIP 0014).
 * InvalidParamsError when no block after genesis is finalized or the shutdown is after the last
 * finalized block.
 */
export function estimateSafeStatus(
  chainStore: Pick<ChainStore, 'finalizedHeight' | 'genesisHeight' | 'getHeaderByHeight'>,
  blockTime: number,
  timeShutdown: number,
): GeneratedInfo {
  const finalizedHeight = chainStore.finalizedHeight();
  const genesisHeight = chainStore.genesisHeight();
  if (finalizedHeight === genesisHeight) {
    throw new InvalidParamsError('At least one block after the genesis block must be finalized.');
  }
  const finalized = chainStore.getHeaderByHeight(finalizedHeight);
  if (finalized === undefined) throw new StoreError('Store inconsistency: the finalized header is missing.');
  if (timeShutdown > finalized.timestamp) {
    throw new InvalidParamsError(`A block at the time shutdown ${timeShutdown} must be finalized.`);
  }
  // Heights the validator may have signed on blocks missed during the last 30 days.
  const blocksPerMonth = Math.ceil(SECONDS_PER_MONTH / blockTime);
  const monthAgoHeight = Math.max(finalizedHeight - blocksPerMonth, genesisHeight + 1);
  const monthAgo = chainStore.getHeaderByHeight(monthAgoHeight);
  if (monthAgo === undefined) throw new StoreError(`Store inconsistency: the header at height ${monthAgoHeight} is missing.`);
  const expectedBlocks = Math.ceil((finalized.timestamp - monthAgo.timestamp) / blockTime);
  const generatedBlocks = finalized.height - monthAgo.height;
  const safe = finalizedHeight + (expectedBlocks - generatedBlocks);
  return { height: safe, maxHeightGenerated: safe, maxHeightPrevoted: safe };
}
