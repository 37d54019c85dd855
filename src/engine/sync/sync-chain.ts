import type { BlockHeader } from '../../chain/block-header.js';
import type { Block } from '../../chain/block.js';
import type { ChainStore } from '../../chain/chain-store.js';
import type { TempBlockStore } from '../../chain/temp-block-store.js';
import type { StateDb } from '../../state/state-db.js';
import type { BlockReceiverListener } from '../block-receiver.js';
import type { ChainProcessor, TipWriter } from '../chain-processor.js';
import type { Bft } from '../consensus/bft/bft.js';
import type { BftValidator } from '../consensus/bft/schemas.js';

/** The parts of an open chain the synchronizer reads and changes. */
export interface SyncChainParts {
  readonly processor: ChainProcessor;
  readonly chainStore: ChainStore;
  readonly stateDb: StateDb;
  readonly bft: Bft;
  readonly tempBlocks: TempBlockStore;
  /** genesis.maxTransactionsSize, for the static block check. */
  readonly maxTransactionsSize: number;
}

/** What the node hears about blocks the synchronizer applies or deletes (RPC events, the pool). */
export type SyncListener = Pick<BlockReceiverListener, 'blockApplied' | 'blockDeleted'>;

/**
 * The chain as one synchronization attempt sees it, while it holds the processor's tip lock:
 * reads, the static check, applying a block, and deleting blocks down to a height (optionally
 * keeping them as temp blocks). Every change is reported to the listener, as block receipt does.
 */
export class SyncChain {
  constructor(
    private readonly parts: SyncChainParts,
    private readonly writer: TipWriter,
    private readonly listener: SyncListener,
  ) {}

  tip(): BlockHeader {
    return this.parts.processor.tipHeader();
  }

  finalizedHeight(): number {
    return this.parts.chainStore.finalizedHeight();
  }

  genesisHeight(): number {
    return this.parts.chainStore.genesisHeight();
  }

  headerAt(height: number): BlockHeader | undefined {
    return this.parts.chainStore.getHeaderByHeight(height);
  }

  headerById(id: Buffer): BlockHeader | undefined {
    return this.parts.chainStore.getHeaderById(id);
  }

  /** The validators of the next height (lisk-sdk consensus `getCurrentValidators`). */
  currentValidators(): readonly BftValidator[] {
    const { bft, stateDb } = this.parts;
    return bft.getParameters(stateDb.engineReader, this.tip().height + 1).validators;
  }

  slotNumber(timestamp: number): number {
    return this.parts.bft.slotNumber(timestamp);
  }

  /** The static checks of a block (schema, version, sizes, transaction root); throws InvalidBlockError. */
  validate(block: Block): void {
    block.validate(this.parts.maxTransactionsSize);
  }

  /** Verifies, executes and stores `block` on the tip; throws InvalidBlockError. */
  async apply(block: Block): Promise<void> {
    const processed = await this.writer.processBlock(block);
    this.listener.blockApplied?.(processed);
  }

  /**
   * Applies `blocks` in order, each as `apply` does, until one fails (it throws) or `stopping`
   * says to stop (false). The signatures of the blocks after the one applying are verified
   * meanwhile (ChainProcessor.verifyAhead), and each block executes while the one before it is
   * being committed (ChainProcessor.processBlocks); what is not applied leaves nothing behind.
   */
  async applyInOrder(blocks: readonly Block[], stopping: () => boolean = () => false): Promise<boolean> {
    const { processor } = this.parts;
    processor.verifyAhead(blocks);
    try {
      return await this.writer.processBlocks(blocks, (processed) => this.listener.blockApplied?.(processed), stopping);
    } finally {
      processor.verifyAhead([]);
    }
  }

  /** Deletes blocks until the tip is at `height`; with `keep`, each is kept as a temp block. */
  deleteAbove(height: number, keep: boolean): void {
    const { tempBlocks } = this.parts;
    while (this.tip().height > height) {
      const deleted = this.writer.revertTip(keep ? tempBlocks : undefined);
      this.listener.blockDeleted?.(deleted);
    }
  }

  /** The temp blocks, highest first. */
  tempBlocks(): Block[] {
    return this.parts.tempBlocks.list();
  }

  clearTempBlocks(): void {
    this.parts.tempBlocks.clear();
  }

  /** Applies the temp blocks, lowest first, on the tip they were deleted from, then forgets them. */
  async restoreTempBlocks(): Promise<void> {
    await this.applyInOrder(this.tempBlocks().reverse());
    this.clearTempBlocks();
  }
}
