/**
 * The P2P part of the composition root: the Lisk P2P network (src/p2p) over the node's chain,
 * pool and block-receive path, with the synchronizer (src/engine/sync) behind it. Built with the
 * other services and started by the runtime after them; a node without it (tests, replay) is a
 * node alone, as before.
 */
import type { BlockHeader } from '../chain/block-header.js';
import type { Block } from '../chain/block.js';
import { TempBlockStore } from '../chain/temp-block-store.js';
import type { GenesisConfig } from '../config/genesis-config.js';
import type { NodeConfig } from '../config/node-config.js';
import type { BlockReceiver } from '../engine/block-receiver.js';
import { Synchronizer, type SyncListener } from '../engine/sync/index.js';
import type { TransactionPool } from '../engine/txpool/transaction-pool.js';
import type { Logger } from '../logger.js';
import { LegacyChainSync } from '../legacy-chain/index.js';
import { type BlocksFromIdReader, chainProcedures, legacyBlocksFromIdHandler, P2pNetwork, p2pOptionsFromConfig } from '../p2p/index.js';
import { PeerStore, SAVE_PEERS_INTERVAL_MS } from '../p2p/peer-store.js';
import type { CommitPool } from '../engine/consensus/commit-pool.js';
import { BlockGossip } from '../p2p/endpoints/block-gossip.js';
import { CommitGossip } from '../p2p/endpoints/commit-gossip.js';
import { encodedBlockAt } from '../chain/blocks-from-id.js';
import { chainStoreSource, poolTransactionSource } from '../p2p/endpoints/chain-store-source.js';
import { P2pLegacySyncNetwork } from '../p2p/endpoints/p2p-legacy-sync-network.js';
import { P2pSyncNetwork } from '../p2p/endpoints/p2p-sync-network.js';
import { TransactionGossip } from '../p2p/endpoints/transaction-gossip.js';
import type { OpenChain } from './open-chain.js';

export interface NodeNetworkContext {
  readonly config: NodeConfig;
  readonly genesisConfig: GenesisConfig;
  readonly chain: OpenChain;
  readonly pool: TransactionPool;
  readonly receiver: BlockReceiver;
  /** The block producer's commit pool, whose single commits are gossiped (absent: none are). */
  readonly commitPool?: CommitPool;
  /**
   * What the synchronizer's applied and deleted blocks are reported to, as the receiver's are
   * (it also calls `tipChanged`).
   */
  readonly chainListener: SyncListener;
  readonly logger: Logger;
  /** Builds getBlocksFromId answers off the network thread (absent: built on it). */
  readonly blocksFromIdReader?: BlocksFromIdReader;
  /** Unix seconds. */
  readonly now?: () => number;
  /** network_newBlock / network_newTransaction. */
  readonly onNetworkBlock?: (block: Block) => void;
  readonly onTransactionsAnnounced?: (ids: readonly Buffer[]) => void;
}

/** The node on the P2P network: peers, block and transaction gossip, synchronization. */
export class NodeNetwork {
  readonly synchronizer: Synchronizer;
  private readonly transactions: TransactionGossip;
  private readonly commits: CommitGossip | undefined;
  private p2p: P2pNetwork | undefined;
  private readonly peerStore: PeerStore;
  private savePeers: NodeJS.Timeout | undefined;
  private gossip: BlockGossip | undefined;
  private legacySync: LegacyChainSync | undefined;
  private readonly now: () => number;

  constructor(private readonly context: NodeNetworkContext) {
    const { chain, genesisConfig, logger } = context;
    this.now = context.now ?? (() => Math.floor(Date.now() / 1000));
    this.peerStore = new PeerStore(chain.env);
    this.synchronizer = new Synchronizer({
      processor: chain.processor,
      chainStore: chain.chainStore,
      stateDb: chain.stateDb,
      bft: chain.bft,
      tempBlocks: new TempBlockStore(chain.env),
      maxTransactionsSize: genesisConfig.maxTransactionsSize,
      network: new P2pSyncNetwork(() => this.p2p),
      listener: context.chainListener,
      logger: logger.child({ module: 'sync' }),
      now: this.now,
    });
    this.transactions = new TransactionGossip({
      network: () => this.p2p,
      pool: context.pool,
      chainStore: chain.chainStore,
      onAnnouncement: context.onTransactionsAnnounced,
      logger,
    });
    context.pool.addListener({ transactionAdded: (transaction) => this.transactions.enqueue(transaction) });
    this.commits =
      context.commitPool &&
      new CommitGossip({
        network: () => this.p2p,
        commitPool: context.commitPool,
        chainStore: chain.chainStore,
        engineState: () => chain.stateDb.engineReader,
        chainID: genesisConfig.chainID,
        minimumCertifyHeight: genesisConfig.minimumCertifyHeight,
        intervalSeconds: genesisConfig.blockTime / 2,
        logger,
      });
  }

  /** True while the synchronizer runs (`system_getNodeInfo.syncing`); the node does not generate then. */
  get syncing(): boolean {
    return this.synchronizer.isActive;
  }

  /** The running P2P network, for the network_* endpoints. */
  get network(): P2pNetwork | undefined {
    return this.p2p;
  }

  /**
   * Restores blocks an interrupted sync left, then opens the P2P port and connects to the
   * configured peers (seed names resolved through DNS).
   */
  async start(): Promise<void> {
    const { config, genesisConfig, chain, pool, receiver, logger } = this.context;
    await this.synchronizer.init();
    const { options, unresolved } = await p2pOptionsFromConfig(config.network, genesisConfig.chainID, {
      logger: logger.child({ module: 'p2p' }),
      nodeInfoOptions: this.nodeInfoOptions(),
      secret: this.peerStore.secret(),
      previousPeers: this.peerStore.triedPeers(),
      handlers: {
        procedures: {
          ...chainProcedures(chainStoreSource(chain.chainStore), poolTransactionSource(pool, chain.chainStore), {
            blocksFromIdReader: this.context.blocksFromIdReader,
          }),
          getLegacyBlocksFromId: legacyBlocksFromIdHandler(chain.legacyStore),
        },
        messages: {
          postBlock: (data, call) => this.gossip?.onPostBlock(data, call),
          postTransactionsAnnouncement: this.transactions.onAnnouncement,
          ...(this.commits && { postSingleCommitMessages: this.commits.onCommits }),
        },
      },
    });
    if (unresolved.length > 0) logger.warn({ seeds: unresolved }, 'Seed peers whose names did not resolve');
    const network = new P2pNetwork(options);
    const tip = (): BlockHeader => chain.processor.tipHeader();
    const gossip = new BlockGossip({
      network,
      receiver,
      synchronizer: this.synchronizer,
      tip,
      tipBytes: () => encodedBlockAt(chain.chainStore, tip().height),
      onNetworkBlock: this.context.onNetworkBlock,
      logger,
      now: this.now,
    });
    network.on('peer:connect', gossip.onPeerTip);
    network.on('peer:update', gossip.onPeerTip);
    network.on('peer:disconnect', ({ peerId }) => gossip.forgetPeer(peerId));
    this.p2p = network;
    this.gossip = gossip;
    await network.start();
    if (config.legacy.sync) {
      // As lisk-sdk: with legacy sync on, complete brackets are announced in the node info and the
      // others fetched from peers that announce them; with it off the node announces none.
      this.legacySync = new LegacyChainSync({
        store: chain.legacyStore,
        brackets: config.legacy.brackets,
        network: new P2pLegacySyncNetwork(() => this.p2p),
        logger,
      });
      this.legacySync.start();
    }
    this.transactions.start();
    this.commits?.start();
    this.savePeers = setInterval(() => this.peerStore.saveTriedPeers(network.triedPeers()), SAVE_PEERS_INTERVAL_MS);
    logger.info({ host: options.host ?? '0.0.0.0', port: network.port, seeds: options.seedPeers?.length ?? 0 }, 'P2P network started');
  }

  async stop(): Promise<void> {
    this.transactions.stop();
    this.commits?.stop();
    if (this.savePeers) clearInterval(this.savePeers);
    this.legacySync?.stop();
    this.legacySync = undefined;
    await this.synchronizer.stop();
    const network = this.p2p;
    if (network) this.peerStore.saveTriedPeers(network.triedPeers());
    this.p2p = undefined;
    this.gossip = undefined;
    await network?.stop();
  }

  /** A block the node generated: pushed to peers (received blocks are relayed by the gossip). */
  blockGenerated(block: Block): void {
    this.gossip?.push(block);
  }

  /** Tells peers the new tip (postNodeInfo), after every stored or deleted block. */
  tipChanged(): void {
    this.p2p?.applyNodeInfo(this.nodeInfoOptions());
  }

  private nodeInfoOptions(): { height: number; maxHeightPrevoted: number; blockVersion: number; lastBlockID: Buffer } {
    const { chain } = this.context;
    const tip = chain.processor.tipHeader();
    const { maxHeightPrevoted } = chain.bft.getHeights(chain.stateDb.engineReader);
    return { height: tip.height, maxHeightPrevoted, blockVersion: tip.version, lastBlockID: tip.id };
  }
}
