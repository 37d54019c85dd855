import type { BlockHeader } from '../../chain/block-header.js';
import type { Block } from '../../chain/block.js';
import { isDifferentChain } from '../fork-choice.js';
import { restartSync, SyncBlockProcessingError, SyncStopError } from './sync-errors.js';
import type { SyncContext, SyncMechanism } from './sync-mechanism.js';
import { chooseBestPeer } from './sync-peers.js';

/** Failed `getBlocksFromId` requests tolerated before the peer is penalised (lisk-sdk: 10). */
const MAX_FAILED_FETCHES = 10;

/**
 * Block synchronization (LIP 0014; lisk-sdk 6.1
 * `framework/src/engine/consensus/synchronizer/block_synchronization_mechanism.ts`): for a node
 * more than three rounds behind finality. It picks the best peer by announced tip, checks that
 * peer's last block, finds the highest common block by rounds, deletes our blocks above it (kept
 * as temp blocks), then fetches and applies the peer's blocks up to the received block.
 */
export class BlockSynchronization implements SyncMechanism {
  readonly name = 'BlockSynchronizationMechanism';

  isValidFor({ chain, now }: SyncContext): boolean {
    const finalized = chain.headerAt(chain.finalizedHeight());
    if (!finalized) return false;
    const threeRounds = chain.currentValidators().length * 3;
    return chain.slotNumber(now()) - chain.slotNumber(finalized.timestamp) > threeRounds;
  }

  async run(context: SyncContext, received: Block): Promise<void> {
    const { chain, network, random } = context;
    const best = chooseBestPeer(network.syncPeers(), chain.tip(), random);
    await this.checkPeerTip(context, best.peerId);
    const common = await this.revertToCommonBlock(context, best.peerId);
    try {
      await this.fetchAndApply(context, best.peerId, common.id, received.header.id);
    } catch (error) {
      if (!(error instanceof SyncBlockProcessingError)) throw error;
      await this.recoverFromFailedBlock(context, common, best.peerId);
    }
    chain.clearTempBlocks();
  }

  /** The peer's last block must pass the static checks and beat our tip (or be our tip). */
  private async checkPeerTip({ chain, requests }: SyncContext, peerId: string): Promise<void> {
    const peerTip = await requests.lastBlock(peerId);
    let valid = true;
    try {
      chain.validate(peerTip);
    } catch {
      valid = false;
    }
    const tip = chain.tip();
    if (!valid || !(isDifferentChain(tip, peerTip.header) || peerTip.header.id.equals(tip.id))) {
      throw restartSync('the tip of the peer is not valid or has no priority over ours', peerId);
    }
  }

  private async revertToCommonBlock({ chain, requests, logger }: SyncContext, peerId: string): Promise<BlockHeader> {
    const common = await requests.commonBlockByRounds(peerId);
    if (!common) throw restartSync('no common block with the peer', peerId);
    if (common.height < chain.finalizedHeight()) throw restartSync('the common block is below the finalized height', peerId);
    logger.debug({ id: common.id.toString('hex'), height: common.height }, 'Found the common block; deleting the blocks above it');
    chain.deleteAbove(common.height, true);
    return common;
  }

  private async fetchAndApply(context: SyncContext, peerId: string, fromId: Buffer, toId: Buffer): Promise<void> {
    const { chain, requests, logger, stopping } = context;
    let failures = 0;
    let lastFetched = fromId;
    let prefetched: Promise<Block[]> | undefined;
    while (failures < MAX_FAILED_FETCHES) {
      let blocks: Block[];
      try {
        blocks = await (prefetched ?? requests.blocksAbove(peerId, lastFetched));
      } catch (error) {
        if (error instanceof SyncStopError) throw error;
        failures += 1;
        continue;
      } finally {
        prefetched = undefined;
      }
      lastFetched = (blocks[blocks.length - 1] as Block).header.id;
      const end = blocks.findIndex((block) => block.header.id.equals(toId));
      if (end >= 0) blocks.splice(end + 1);
      else {
        // The next batch is the one above this one's last block whatever happens to this one: it
        // is asked for now and travels while this one applies. If this one fails it is dropped.
        prefetched = requests.blocksAbove(peerId, lastFetched);
        prefetched.catch(() => undefined);
      }
      try {
        for (const block of blocks) chain.validate(block);
        if (!(await chain.applyInOrder(blocks, stopping))) return;
      } catch (error) {
        logger.warn({ err: error, peerId }, 'A block fetched from the peer failed');
        throw new SyncBlockProcessingError(error);
      }
      if (chain.tip().id.equals(toId)) return;
    }
    throw restartSync('the peer sent no blocks', peerId);
  }

  /**
   * A fetched block failed. If the chain we left (the temp blocks) beats what we reached, go back
   * to it; either way the peer that served the block is penalised and the sync starts again.
   * lisk-sdk penalises only in the first case: a peer serving a bad block above our own tip (no
   * blocks left behind) made it restart without end.
   */
  private async recoverFromFailedBlock({ chain, logger }: SyncContext, common: BlockHeader, peerId: string): Promise<void> {
    const previousTip = chain.tempBlocks()[0];
    if (previousTip && !isDifferentChain(previousTip.header, chain.tip())) {
      logger.info({ previousTip: previousTip.header.id.toString('hex') }, 'Restoring the chain left behind: it has priority');
      chain.deleteAbove(common.height, false);
      await chain.restoreTempBlocks();
      throw restartSync('the new chain has no priority over the one left behind', peerId);
    }
    chain.clearTempBlocks();
    throw restartSync('a block of the peer failed; the blocks before it are kept', peerId);
  }
}
