import { Block } from '../../chain/block.js';
import { InvalidBlockError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import { isDifferentChain, isValidBlock } from '../fork-choice.js';
import { BlockSynchronization } from './block-synchronization.js';
import { FastChainSwitching } from './fast-chain-switching.js';
import { SyncChain, type SyncChainParts, type SyncListener } from './sync-chain.js';
import { SyncStopError } from './sync-errors.js';
import type { SyncContext, SyncMechanism } from './sync-mechanism.js';
import type { SyncNetwork } from './sync-network.js';
import { SyncRequests } from './sync-peers.js';

/** The penalty for a peer that served bad data: Lisk's ban score. */
export const SYNC_PENALTY = 100;
/** Attempts of one run (lisk-sdk restarts without bound; a stuck run would hold the tip forever). */
const MAX_ATTEMPTS = 10;

export interface SynchronizerOptions extends SyncChainParts {
  readonly network: SyncNetwork;
  readonly listener?: SyncListener;
  readonly logger?: Logger;
  /** Unix seconds; injectable for tests. */
  readonly now?: () => number;
  readonly random?: () => number;
}

/**
 * The synchronizer (LIP 0014; lisk-sdk 6.1 `framework/src/engine/consensus/synchronizer/`): run
 * when a received block belongs to a chain with priority. One run at a time, holding the chain
 * processor's tip lock, so block production and block receipt wait for it; `isActive` is what
 * `system_getNodeInfo.syncing` reports. Block synchronization is tried first, then fast chain
 * switching; a mechanism's restart runs it again (up to ten attempts), an abort ends the run,
 * and a peer that served bad data gets the ban penalty. See docs/protocol/sync.md.
 */
export class Synchronizer {
  private readonly mechanisms: readonly SyncMechanism[] = [new BlockSynchronization(), new FastChainSwitching()];
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly random: () => number;
  private running: Promise<void> | undefined;
  /** A peer's last block being fetched by `syncToPeer`, the step before a run. */
  private fetchingLastBlock = false;
  private stopped = false;

  constructor(private readonly options: SynchronizerOptions) {
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.random = options.random ?? Math.random;
  }

  get isActive(): boolean {
    return this.running !== undefined;
  }

  /**
   * At start-up: temp blocks left by a sync that was interrupted (a crash, a kill) are applied
   * again if they beat the tip, and dropped otherwise (lisk-sdk `restoreBlocksUponStartup`).
   */
  async init(): Promise<void> {
    const { tempBlocks, processor } = this.options;
    if (tempBlocks.isEmpty()) return;
    await processor.withTipLock(async (writer) => {
      const chain = new SyncChain(this.options, writer, this.options.listener ?? {});
      const kept = chain.tempBlocks();
      const highest = kept[0] as Block;
      const lowest = kept[kept.length - 1] as Block;
      const tip = chain.tip();
      if (!isDifferentChain(tip, highest.header) && !isValidBlock(tip, highest.header)) {
        chain.clearTempBlocks();
        return;
      }
      this.logger.info({ from: lowest.header.height, to: highest.header.height }, 'Restoring blocks left by an interrupted sync');
      try {
        chain.deleteAbove(lowest.header.height - 1, false);
        await chain.restoreTempBlocks();
        this.logger.info({ height: chain.tip().height }, 'Chain restored');
      } catch (error) {
        this.logger.error({ err: error }, 'Failed to restore blocks left by an interrupted sync');
        chain.clearTempBlocks();
      }
    });
  }

  /**
   * Syncs towards `received`, a block from `peerId` whose chain has priority. Returns at once if a
   * run is already going (lisk-sdk does the same). Never throws: outcomes are logged.
   */
  run(received: Block, peerId: string): Promise<void> {
    if (this.running || this.stopped) return this.running ?? Promise.resolve();
    const run = this.options.processor
      .withTipLock((writer) => this.attempts(new SyncChain(this.options, writer, this.options.listener ?? {}), received, peerId))
      .catch((error: unknown) => this.logger.error({ err: error }, 'Synchronization failed'))
      .finally(() => {
        this.running = undefined;
      });
    this.running = run;
    return run;
  }

  /**
   * Basalt also syncs without a pushed block: when a peer's node info announces a tip with
   * priority, its last block is fetched and synced to (a Lisk node waits for the next postBlock).
   * Nothing is fetched while a run is going or another peer's last block is on its way (peers
   * ahead announce their tips together, and one run serves them all), and a block that arrives
   * after a run has started is dropped undecoded.
   */
  async syncToPeer(peerId: string): Promise<void> {
    if (this.running || this.stopped || this.fetchingLastBlock) return;
    this.fetchingLastBlock = true;
    let block: Block;
    try {
      const bytes = await this.options.network.getLastBlock(peerId);
      if (this.running || this.stopped) return;
      block = Block.fromBytes(bytes);
    } catch (error) {
      this.logger.debug({ err: error, peerId }, 'Could not fetch the last block of a peer ahead of us');
      return;
    } finally {
      this.fetchingLastBlock = false;
    }
    if (isDifferentChain(this.options.processor.tipHeader(), block.header)) await this.run(block, peerId);
  }

  /** Stops after the block being applied; resolves when the run has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async attempts(chain: SyncChain, received: Block, peerId: string): Promise<void> {
    const { header } = received;
    this.logger.info({ blockId: header.id.toString('hex'), height: header.height, peerId }, 'Starting synchronizer');
    try {
      chain.validate(received);
    } catch (error) {
      if (!(error instanceof InvalidBlockError)) throw error;
      this.logger.warn({ err: error, peerId }, 'The block that triggered the sync is invalid');
      this.options.network.applyPenalty(peerId, SYNC_PENALTY);
      return;
    }
    const context: SyncContext = {
      chain,
      requests: new SyncRequests(this.options.network, chain),
      network: this.options.network,
      logger: this.logger,
      now: this.now,
      random: this.random,
      stopping: () => this.stopped,
    };
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !this.stopped; attempt += 1) {
      const mechanism = this.mechanisms.find((candidate) => candidate.isValidFor(context, received, peerId));
      if (!mechanism) {
        this.logger.info({ blockId: header.id.toString('hex') }, 'No sync mechanism applies to the block');
        return;
      }
      this.logger.info({ mechanism: mechanism.name, attempt }, `Triggering: ${mechanism.name}`);
      try {
        await mechanism.run(context, received, peerId);
        const tip = chain.tip();
        this.logger.info(
          { lastBlockHeight: tip.height, lastBlockID: tip.id.toString('hex'), mechanism: mechanism.name },
          'Synchronization finished.',
        );
        return;
      } catch (error) {
        if (!(error instanceof SyncStopError)) throw error;
        if (error.peerId !== undefined) this.options.network.applyPenalty(error.peerId, SYNC_PENALTY);
        this.logger.info({ reason: error.reason, penalisedPeer: error.peerId }, error.message);
        if (error.outcome === 'abort') return;
      }
    }
    this.logger.warn({ attempts: MAX_ATTEMPTS }, 'Synchronization gave up for now; the next block with priority starts it again');
  }
}
