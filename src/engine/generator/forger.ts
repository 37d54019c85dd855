import type { BlockHeader } from '../../chain/block-header.js';
import type { Block } from '../../chain/block.js';
import type { ChainStore } from '../../chain/chain-store.js';
import type { Transaction } from '../../chain/transaction.js';
import type { GenesisConfig } from '../../config/genesis-config.js';
import { StoreWriteError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { StateDb } from '../../state/state-db.js';
import type { ChainProcessor, ProcessedBlock } from '../chain-processor.js';
import type { Bft } from '../consensus/bft/bft.js';
import { commitRemovalHeight, createSingleCommit, type CommitPool } from '../consensus/commit-pool.js';
import type { BlockGenerator } from './block-generator.js';
import type { ProcessableTransactions } from '../txpool/transaction-pool.js';
import type { GeneratorKeypair } from './generator-keypair.js';

export interface ForgerOptions {
  readonly generator: BlockGenerator;
  readonly processor: ChainProcessor;
  readonly chainStore: ChainStore;
  readonly stateDb: StateDb;
  readonly bft: Bft;
  readonly commitPool: CommitPool;
  readonly genesisConfig: GenesisConfig;
  readonly logger: Logger;
  /** Transactions to choose from for the next block (the pool's processable ones). */
  readonly candidates: () => ProcessableTransactions;
  /** Called after a block of any origin was stored. */
  readonly onBlockProcessed?: (processed: ProcessedBlock) => void;
  /** Called with candidates that can never be included (the pool drops them). */
  readonly onInvalidTransactions?: (transactions: readonly Transaction[]) => void;
  /** Called with each block this node generated, once stored (the network pushes it to peers). */
  readonly onBlockGenerated?: (block: Block) => void;
  /** While true no block is generated (lisk-sdk's generator loop skips while the synchronizer runs). */
  readonly isSyncing?: () => boolean;
  /** Unix seconds. */
  readonly now?: () => number;
}

/** lisk-sdk FORGE_INTERVAL: how often the slot is checked. */
export const FORGE_INTERVAL_MS = 1000;

/**
 * Drives block production for the validators whose keys are enabled on this node (lisk-sdk
 * generator _generateLoop): once per second it checks whether the current slot belongs to one
 * of them and no block was made for it yet, generates, and stores the block through the normal
 * block-receive path. After each block whose processing moved the finalized height, the local
 * validators sign single commits for the newly final heights (lisk-sdk SingleCommitHandler).
 */
export class Forger {
  private readonly keypairs = new Map<string, GeneratorKeypair>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: ForgerOptions) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  enable(keypair: GeneratorKeypair): void {
    this.keypairs.set(keypair.address.toString('hex'), keypair);
  }

  disable(address: Buffer): void {
    this.keypairs.delete(address.toString('hex'));
  }

  isEnabled(address: Buffer): boolean {
    return this.keypairs.has(address.toString('hex'));
  }

  enabledKeypair(address: Buffer): GeneratorKeypair | undefined {
    return this.keypairs.get(address.toString('hex'));
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tick()
        .then(() => undefined)
        .catch((error) => {
          this.options.logger.error({ err: error }, 'Block generation failed');
          // The generator info is written before the block: its failed commit stops the node too.
          if (error instanceof StoreWriteError) this.options.processor.reportStoreWriteFailure(error);
        })
        .finally(() => {
          this.running = undefined;
        });
    }, FORGE_INTERVAL_MS);
  }

  /** Stops the timer and waits for a block in flight to be stored. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One slot check; returns the stored block when one was generated. */
  async tick(): Promise<ProcessedBlock | undefined> {
    const { bft, chainStore, stateDb, genesisConfig } = this.options;
    if (this.keypairs.size === 0 || this.options.isSyncing?.() === true) return undefined;
    const now = this.now();
    const slot = bft.slotNumber(now);
    const tip = chainStore.getHeaderByHeight(chainStore.tipHeight()) as BlockHeader;
    const tipSlot = bft.slotNumber(tip.timestamp);
    if (slot === tipSlot) return undefined;
    const generator = bft.generatorAtTimestamp(stateDb.engineReader, tip.height + 1, now);
    const keypair = this.keypairs.get(generator.address.toString('hex'));
    if (!keypair) return undefined;
    // A missed previous slot: give its block a fifth of the slot to arrive before building on
    // the older tip (lisk-sdk waitThreshold).
    if (tipSlot < slot - 1 && now <= bft.slotTime(slot) + genesisConfig.blockTime / 5) return undefined;

    const { block, invalid } = await this.options.generator.generate(keypair, now, this.options.candidates());
    if (invalid.length > 0) this.options.onInvalidTransactions?.(invalid);
    const processed = await this.options.processor.processBlock(block);
    this.options.logger.info(
      { height: block.header.height, id: block.header.id.toString('hex'), transactions: block.transactions.length },
      'Generated block',
    );
    this.options.onBlockGenerated?.(block);
    this.afterBlock(processed);
    return processed;
  }

  /** Bookkeeping after any stored block: single commits for newly final heights, pool pruning. */
  afterBlock(processed: ProcessedBlock): void {
    const { commitPool, stateDb, chainStore } = this.options;
    if (processed.finalizedHeight > processed.previousFinalizedHeight) {
      this.certify(processed.previousFinalizedHeight, processed.finalizedHeight);
    }
    commitPool.prune(stateDb.engineReader, this.maxRemovalHeight(), chainStore.tipHeight());
    this.options.onBlockProcessed?.(processed);
  }

  /** lisk-sdk SingleCommitHandler.handleFinalizedHeightChanged for every enabled validator. */
  private certify(from: number, to: number): void {
    const { bft, stateDb, chainStore, commitPool, genesisConfig } = this.options;
    const start = Math.max(this.maxRemovalHeight(), from);
    if (start >= to) return;
    for (const keypair of this.keypairs.values()) {
      for (let height = start + 1; height <= to; height += 1) {
        // Below `to`, only the last block before a validator change needs a certificate.
        if (height < to && !bft.parametersChangeAt(stateDb.engineReader, height + 1)) continue;
        const { validators } = bft.getParameters(stateDb.engineReader, height);
        const validator = validators.find((v) => v.bftWeight > 0n && v.address.equals(keypair.address));
        if (!validator?.blsKey.equals(keypair.blsKey)) continue;
        const header = chainStore.getHeaderByHeight(height);
        if (!header) continue;
        commitPool.add(createSingleCommit(header, keypair.address, keypair.blsSecretKey, genesisConfig.chainID));
      }
    }
  }

  private maxRemovalHeight(): number {
    return commitRemovalHeight(this.options.chainStore, this.options.genesisConfig.minimumCertifyHeight);
  }
}
