import { Block } from '../../chain/block.js';
import type { BlockHeader } from '../../chain/block-header.js';
import { codec } from '../../codec/index.js';
import { InvalidBlockError, type BlockRejectionReason } from '../../errors.js';
import type { BlockReceiver } from '../../engine/block-receiver.js';
import { isDifferentChain } from '../../engine/fork-choice.js';
import type { Synchronizer } from '../../engine/sync/index.js';
import type { Logger } from '../../logger.js';
import { PENALTY_BAN } from '../constants.js';
import type { P2pCallContext } from '../handlers.js';
import type { P2pNetwork, P2pPeerInfo } from '../p2p-network.js';
import { postBlockSchema } from '../schemas.js';

/** Rejections found only by executing the block: lisk-sdk refuses the block without a penalty. */
const EXECUTION_REASONS: ReadonlySet<BlockRejectionReason> = new Set(['validators-hash', 'event-root', 'state-root', 'execution']);
/** How often the same tip is offered again to a peer that stays behind (seconds). */
const OFFER_INTERVAL_SECONDS = 10;
/**
 * A peer this many blocks ahead is synced from at once; closer than that, its next blocks come by
 * postBlock anyway, and asking for its last block on every announcement would only spend its
 * getLastBlock allowance (10 per 10 s).
 */
const SYNC_AHEAD_BLOCKS = 2;

export interface BlockGossipOptions {
  readonly network: P2pNetwork;
  readonly receiver: BlockReceiver;
  readonly synchronizer: Synchronizer;
  readonly tip: () => BlockHeader;
  /** The tip block, encoded (offered to peers behind). */
  readonly tipBytes: () => Uint8Array;
  /** Told of every block a peer pushed, once decoded (network_newBlock). */
  readonly onNetworkBlock?: (block: Block) => void;
  readonly logger: Logger;
  /** Unix seconds. */
  readonly now: () => number;
}

/**
 * Blocks over P2P (lisk-sdk `framework/src/engine/consensus/consensus.ts` onBlockReceive and the
 * broadcaster): a pushed `postBlock` is decoded (an undecodable one bans its sender), ignored
 * while a sync runs, and otherwise goes to fork choice; a block that extends the chain is relayed,
 * one from a chain with priority starts the synchronizer, and one that fails verification costs
 * its sender the ban penalty. The node's own blocks are pushed to peers as they are stored.
 *
 * Beyond lisk-sdk: a Lisk node syncs only after a pushed block beats its tip, so a peer whose
 * node info shows it behind is offered our tip; and a peer whose node info shows a chain with
 * priority is synced from at once, without waiting for its next block.
 */
export class BlockGossip {
  private readonly offered = new Map<string, { id: string; at: number }>();

  constructor(private readonly options: BlockGossipOptions) {}

  /** The `postBlock` message handler. */
  readonly onPostBlock = async (data: Buffer | undefined, context: P2pCallContext): Promise<void> => {
    const { synchronizer, receiver, logger, now } = this.options;
    let block: Block;
    try {
      const { block: bytes } = codec.decode<{ block: Buffer }>(postBlockSchema, data ?? Buffer.alloc(0));
      block = Block.fromBytes(bytes);
    } catch (error) {
      logger.warn({ err: error, peerId: context.peerId }, 'Received an undecodable block; penalising the peer');
      context.penalize(PENALTY_BAN);
      return;
    }
    this.options.onNetworkBlock?.(block);
    if (synchronizer.isActive) return;
    const outcome = await receiver.receive(block, now());
    switch (outcome.kind) {
      case 'applied':
      case 'replaced':
        this.push(block);
        return;
      case 'needs-sync':
        void synchronizer.run(block, context.peerId);
        return;
      case 'rejected':
        if (!(outcome.error instanceof InvalidBlockError) || !EXECUTION_REASONS.has(outcome.error.reason)) {
          context.penalize(PENALTY_BAN);
        }
        return;
      default:
        return;
    }
  };

  /** Pushes a block the node stored to its peers (at most 16, as lisk-p2p's send does). */
  push(block: Block): void {
    this.options.network.send('postBlock', codec.encode(postBlockSchema, { block: block.bytes }));
  }

  /**
   * A peer connected or announced a new tip: sync from it when its chain has priority, offer it
   * our tip when ours has.
   */
  readonly onPeerTip = (peer: P2pPeerInfo): void => {
    const { options } = peer;
    if (!options) return;
    const tip = this.options.tip();
    // A Lisk node's node info has an empty lastBlockID and height 0 from its start (lisk-sdk
    // `framework/src/engine/network/network.ts` init) until it executes a block pushed to it or its
    // own: never a chain to sync from, but maybe a node behind us, so it is offered our tip.
    if (options.lastBlockID.length > 0 && isDifferentChain(tip, options)) {
      if (options.height - tip.height > SYNC_AHEAD_BLOCKS) void this.options.synchronizer.syncToPeer(peer.peerId);
      return;
    }
    if (!isDifferentChain(options, tip) || this.options.synchronizer.isActive) return;
    const id = tip.id.toString('hex');
    const now = this.options.now();
    const last = this.offered.get(peer.peerId);
    if (last && last.id === id && now - last.at < OFFER_INTERVAL_SECONDS) return;
    this.offered.set(peer.peerId, { id, at: now });
    this.options.network.sendToPeer(peer.peerId, 'postBlock', codec.encode(postBlockSchema, { block: this.options.tipBytes() }));
  };

  forgetPeer(peerId: string): void {
    this.offered.delete(peerId);
  }
}
