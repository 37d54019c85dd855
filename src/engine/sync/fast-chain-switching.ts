import type { BlockHeader } from '../../chain/block-header.js';
import type { Block } from '../../chain/block.js';
import { abortSync, SyncStopError } from './sync-errors.js';
import type { SyncContext, SyncMechanism } from './sync-mechanism.js';

/** Failed requests tolerated (lisk-sdk: 9 common-block requests, 10 block fetches). */
const MAX_COMMON_BLOCK_FAILURES = 9;
const MAX_FAILED_FETCHES = 10;

/**
 * Fast chain switching (LIP 0014; lisk-sdk 6.1
 * `framework/src/engine/consensus/synchronizer/fast_chain_switching_mechanism.ts`): for a fork
 * at most two rounds deep, announced by a current validator. The common block is searched among
 * our last two rounds of blocks at the sender, its blocks up to the received one are fetched and
 * checked, then our blocks above the common one are swapped for them; a failure puts ours back.
 *
 * lisk-sdk intends a penalty for the sender when the switch fails on its data but never applies
 * it (its error escapes the handler); Basalt applies it.
 */
export class FastChainSwitching implements SyncMechanism {
  readonly name = 'FastChainSwitchingMechanism';

  isValidFor({ chain }: SyncContext, received: Block, peerId: string): boolean {
    if (peerId === '') return false;
    const validators = chain.currentValidators();
    if (Math.abs(received.header.height - chain.tip().height) > validators.length * 2) return false;
    return validators.some((validator) => validator.address.equals(received.header.generatorAddress) && validator.bftWeight > 0n);
  }

  async run(context: SyncContext, received: Block, peerId: string): Promise<void> {
    const { chain, logger } = context;
    const common = await this.commonBlock(context, peerId);
    const twoRounds = chain.currentValidators().length * 2;
    if (!common) throw abortSync('the peer sent no common block', peerId);
    if (common.height < chain.finalizedHeight()) throw abortSync('the common block is below the finalized height', peerId);
    if (chain.tip().height - common.height > twoRounds || received.header.height - common.height > twoRounds) {
      throw abortSync(`the chains differ by more than ${twoRounds} blocks`);
    }
    const blocks = await this.fetchUpTo(context, peerId, common.id, received.header.id, twoRounds);
    if (blocks.length === 0) throw abortSync('the peer sent none of the blocks asked for', peerId);
    try {
      for (const block of blocks) chain.validate(block);
    } catch {
      throw abortSync('a block of the peer failed validation', peerId);
    }
    logger.info({ commonHeight: common.height, blocks: blocks.length }, 'Switching chain');
    chain.deleteAbove(common.height, true);
    try {
      if (!(await chain.applyInOrder(blocks, context.stopping))) return;
      logger.info({ height: chain.tip().height, commonHeight: common.height }, 'Switched chains');
    } catch (error) {
      logger.warn({ err: error, peerId }, 'A block of the other chain failed; restoring ours');
      chain.deleteAbove(common.height, false);
      await chain.restoreTempBlocks();
      throw abortSync('a block of the other chain failed', peerId);
    } finally {
      chain.clearTempBlocks();
    }
  }

  /** The common block among our last two rounds of blocks, asked of the sender. */
  private async commonBlock({ chain, requests }: SyncContext, peerId: string): Promise<BlockHeader | undefined> {
    const tipHeight = chain.tip().height;
    const count = Math.min(chain.currentValidators().length * 2, tipHeight + 1);
    const ids = requests.storedIds(Array.from({ length: count }, (_, i) => tipHeight - i));
    for (let failures = 0; failures < MAX_COMMON_BLOCK_FAILURES; ) {
      try {
        return await requests.highestCommonBlock(peerId, ids);
      } catch (error) {
        if (error instanceof SyncStopError) throw error;
        failures += 1;
      }
    }
    return undefined;
  }

  /** The peer's blocks above `fromId` up to `toId`; never more than `limit` (the two-round window). */
  private async fetchUpTo({ requests }: SyncContext, peerId: string, fromId: Buffer, toId: Buffer, limit: number): Promise<Block[]> {
    const blocks: Block[] = [];
    let lastFetched = fromId;
    for (let failures = 0; failures < MAX_FAILED_FETCHES; ) {
      let chunk: Block[];
      try {
        chunk = await requests.blocksAbove(peerId, lastFetched);
      } catch (error) {
        if (error instanceof SyncStopError) throw error;
        failures += 1;
        continue;
      }
      blocks.push(...chunk);
      lastFetched = (chunk[chunk.length - 1] as Block).header.id;
      const end = blocks.findIndex((block) => block.header.id.equals(toId));
      if (end >= 0) return blocks.slice(0, end + 1);
      if (blocks.length >= limit) return [];
    }
    return blocks;
  }
}
