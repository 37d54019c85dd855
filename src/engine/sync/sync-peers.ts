import { Block } from '../../chain/block.js';
import type { BlockHeader } from '../../chain/block-header.js';
import { isDifferentChain } from '../fork-choice.js';
import { abortSync, restartSync, SyncStopError, UnusableAnswerError } from './sync-errors.js';
import type { SyncChain } from './sync-chain.js';
import type { PeerTip, SyncNetwork, SyncPeer } from './sync-network.js';

/** Block IDs sent in one `getHighestCommonBlock` request (lisk-sdk block synchronization). */
const IDS_PER_COMMON_BLOCK_REQUEST = 10;

/**
 * The peer to sync from (LIP 0014 block synchronization, step 1; lisk-sdk
 * `block_synchronization_mechanism.ts` `_computeBestPeer`): of the peers that announced a tip,
 * those with the highest prevoted height, of those the highest, grouped by tip ID; the largest
 * group wins (a tie goes to the smaller ID), and a random member of it is chosen. Its tip must
 * have priority over ours.
 */
export function chooseBestPeer(peers: readonly SyncPeer[], tip: BlockHeader, random: () => number): SyncPeer & { tip: PeerTip } {
  const withTip = peers.filter((peer): peer is SyncPeer & { tip: PeerTip } => peer.tip !== undefined);
  if (withTip.length === 0) throw abortSync('no connected peer announced a chain tip');
  const topPrevoted = Math.max(...withTip.map((peer) => peer.tip.maxHeightPrevoted));
  const prevoted = withTip.filter((peer) => peer.tip.maxHeightPrevoted === topPrevoted);
  const topHeight = Math.max(...prevoted.map((peer) => peer.tip.height));
  const highest = prevoted.filter((peer) => peer.tip.height === topHeight);
  const groups = new Map<string, (SyncPeer & { tip: PeerTip })[]>();
  for (const peer of highest) {
    const key = peer.tip.lastBlockID.toString('hex');
    const group = groups.get(key);
    if (group) group.push(peer);
    else groups.set(key, [peer]);
  }
  let chosenKey = '';
  let chosen: (SyncPeer & { tip: PeerTip })[] = [];
  for (const [key, group] of groups) {
    if (group.length > chosen.length || (group.length === chosen.length && key < chosenKey)) {
      chosen = group;
      chosenKey = key;
    }
  }
  const peer = chosen[Math.floor(random() * chosen.length)] as SyncPeer & { tip: PeerTip };
  if (!isDifferentChain(tip, peer.tip)) throw abortSync('no peer has a chain with priority over ours');
  return peer;
}

/**
 * The heights whose block IDs go into one common-block request (lisk-sdk
 * `synchronizer/utils.ts` `computeBlockHeightsList`): the first height of each earlier round,
 * newest first, at most `limit` of them, those above the finalized height, then the finalized
 * height itself if the list reached below it.
 */
export function commonBlockHeights(finalizedHeight: number, roundLength: number, limit: number, round: number): number[] {
  const start = Math.max((round - 1) * roundLength, 0);
  const heights: number[] = [];
  for (let i = 0; i < limit; i += 1) {
    const height = start - i * roundLength;
    if (height >= 0) heights.push(height);
  }
  const aboveFinalized = heights.filter((height) => height > finalizedHeight);
  return aboveFinalized.length === heights.length ? aboveFinalized : [...aboveFinalized, finalizedHeight];
}

/**
 * The peer requests a mechanism makes, decoded and checked. A request that fails (timeout, error
 * answer, undecodable data) rejects; the mechanisms count those as failed attempts, as lisk-sdk does.
 */
export class SyncRequests {
  constructor(
    private readonly network: SyncNetwork,
    private readonly chain: SyncChain,
  ) {}

  /** The peer's tip block; a peer that sends none is penalised. */
  async lastBlock(peerId: string): Promise<Block> {
    const bytes = await this.network.getLastBlock(peerId);
    if (bytes.length === 0) throw restartSync('the peer did not send its last block', peerId);
    return Block.fromBytes(bytes);
  }

  /**
   * The highest of `ids` the peer holds, as our stored header; undefined when it holds none.
   * Rejects when the peer names a block we do not have (lisk-sdk reads it from storage and fails).
   */
  async highestCommonBlock(peerId: string, ids: readonly Buffer[]): Promise<BlockHeader | undefined> {
    const id = await this.network.getHighestCommonBlock(peerId, ids);
    if (id.length === 0) return undefined;
    if (id.length !== 32) throw abortSync('the common block answer is not a block ID', peerId);
    const header = this.chain.headerById(id);
    if (!header) throw new UnusableAnswerError(`The peer named common block ${id.toString('hex')}, which this node does not hold.`);
    return header;
  }

  /** Blocks above `id`, ascending; rejects when the peer sent none. */
  async blocksAbove(peerId: string, id: Buffer): Promise<Block[]> {
    const encoded = await this.network.getBlocksFromId(peerId, id);
    if (encoded.length === 0) throw new UnusableAnswerError(`Peer ${peerId} sent no blocks above ${id.toString('hex')}.`);
    return encoded.map((bytes) => Block.fromBytes(bytes)).sort((a, b) => a.header.height - b.header.height);
  }

  /**
   * The common block of block synchronization (lisk-sdk `_requestLastCommonBlock`): the first
   * blocks of the last ten rounds, then ten rounds further back while above the finalized
   * height, in at most two failed requests.
   */
  async commonBlockByRounds(peerId: string): Promise<BlockHeader | undefined> {
    const { chain } = this;
    const roundLength = chain.currentValidators().length;
    const finalized = chain.finalizedHeight();
    let round = Math.ceil(chain.tip().height / roundLength);
    let failures = 0;
    while (failures < 2 && round * roundLength >= finalized) {
      const ids = this.storedIds(commonBlockHeights(finalized, roundLength, IDS_PER_COMMON_BLOCK_REQUEST, round));
      try {
        const common = await this.highestCommonBlock(peerId, ids);
        if (common) return common;
      } catch (error) {
        if (error instanceof SyncStopError) throw error;
        failures += 1;
        continue;
      }
      round -= IDS_PER_COMMON_BLOCK_REQUEST;
    }
    return undefined;
  }

  /** IDs of the stored blocks at `heights` (heights below a migrated chain's genesis are skipped). */
  storedIds(heights: readonly number[]): Buffer[] {
    const ids: Buffer[] = [];
    for (const height of heights) {
      const header = this.chain.headerAt(height);
      if (header) ids.push(header.id);
    }
    return ids;
  }
}
