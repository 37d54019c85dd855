import type { Block } from '../chain/block.js';
import type { ChainStore } from '../chain/chain-store.js';
import { encodeLisk32Address } from '../codec/index.js';
import { InvalidBlockError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ChainProcessor, ProcessedBlock, TipWriter } from './chain-processor.js';
import { forkChoice, ForkStatus, type SlotClock, type TimedHeader } from './fork-choice.js';

/** What the node publishes about received blocks (lisk-sdk consensus events). */
export interface BlockReceiverListener {
  /** A block was stored at the tip: chain_newBlock, pool update, BFT bookkeeping. */
  blockApplied?(processed: ProcessedBlock): void;
  /** The tip block was deleted: chain_deleteBlock; its transactions may go back to the pool. */
  blockDeleted?(block: Block): void;
  /**
   * A received block competes with the chain (every fork status but VALID_BLOCK and
   * IDENTICAL_BLOCK, as lisk-sdk emits its fork event): chain_forked.
   */
  forkDetected?(block: Block, status: ForkStatus): void;
}

/** What `receive` did with a block; the store changed only for 'applied' and 'replaced'. */
export type ReceiveOutcome =
  /** Case 2: the block extended the tip. */
  | { readonly kind: 'applied'; readonly status: ForkStatus.VALID_BLOCK; readonly processed: ProcessedBlock }
  /** Case 4: the tip was deleted and the block took its place. */
  | { readonly kind: 'replaced'; readonly status: ForkStatus.TIE_BREAK; readonly deleted: Block; readonly processed: ProcessedBlock }
  /**
   * Nothing changed: the block is the tip (case 1), a double-forged competitor (case 3), has no
   * priority (discard), or won a tie break against a tip that is already final.
   */
  | {
      readonly kind: 'kept';
      readonly status: ForkStatus.IDENTICAL_BLOCK | ForkStatus.DOUBLE_FORGING | ForkStatus.DISCARD | ForkStatus.TIE_BREAK;
    }
  /** Case 5: the block belongs to a chain with priority; nothing changed, a sync should follow. */
  | { readonly kind: 'needs-sync'; readonly status: ForkStatus.DIFFERENT_CHAIN }
  /**
   * The block is invalid (a sender to penalise). After a failed tie break the previous tip is
   * stored again (listeners saw it deleted and applied).
   */
  | { readonly kind: 'rejected'; readonly status: ForkStatus.VALID_BLOCK | ForkStatus.TIE_BREAK; readonly error: InvalidBlockError };

export interface BlockReceiverOptions {
  readonly processor: ChainProcessor;
  /** The processor's chain store (finalized height). */
  readonly chainStore: Pick<ChainStore, 'finalizedHeight'>;
  /** Slot arithmetic (the node's Bft). */
  readonly clock: SlotClock;
  /** genesis.maxTransactionsSize, for the static check before a tip is deleted. */
  readonly maxTransactionsSize: number;
  readonly logger?: Logger;
  /**
   * Whether the receive time of the blocks applied here is kept for the next decision (default
   * true). lisk-sdk 6.1 never keeps it: its tip always counts as received in time, so its tie
   * break (case 4) never fires. Basalt keeps it by default, as LIP 0014 describes; false
   * reproduces lisk-sdk 6.1 exactly.
   */
  readonly rememberReceivedAt?: boolean;
}

/**
 * The block-receive path of the engine (LIP 0014 "Applying blocks according to fork choice
 * rule"; lisk-sdk 6.1 consensus `_execute`): each received block is classified against the tip
 * by the fork choice rule and then applied, ignored, swapped in for the tip, or reported as
 * belonging to a chain to sync to. One block at a time, under the processor's tip lock, so block
 * production never interleaves with a switch. Blocks the node generates itself keep going
 * through ChainProcessor.processBlock.
 */
export class BlockReceiver {
  private readonly listeners = new Set<BlockReceiverListener>();
  private readonly logger: Logger;
  private readonly rememberReceivedAt: boolean;
  /** When the current tip arrived, if it arrived through `receive`. */
  private tipArrival: { readonly id: Buffer; readonly receivedAt: number } | undefined;

  constructor(private readonly options: BlockReceiverOptions) {
    this.logger = options.logger ?? silentLogger;
    this.rememberReceivedAt = options.rememberReceivedAt ?? true;
  }

  addListener(listener: BlockReceiverListener): void {
    this.listeners.add(listener);
  }

  removeListener(listener: BlockReceiverListener): void {
    this.listeners.delete(listener);
  }

  /**
   * Decides on `block`, received at `receivedAt` (Unix seconds), and acts on the decision.
   * Returns the outcome; throws only when the store itself fails.
   */
  receive(block: Block, receivedAt: number): Promise<ReceiveOutcome> {
    return this.options.processor.withTipLock((writer) => this.decide(writer, block, receivedAt));
  }

  private async decide(writer: TipWriter, block: Block, receivedAt: number): Promise<ReceiveOutcome> {
    const tip = this.timedTip();
    const status = forkChoice(this.options.clock, tip, { ...headerFields(block), receivedAt });
    switch (status) {
      case ForkStatus.VALID_BLOCK:
        return this.extend(writer, block, receivedAt);
      case ForkStatus.IDENTICAL_BLOCK:
        this.logger.debug({ id: hex(block.header.id), height: block.header.height }, 'Block already processed');
        return { kind: 'kept', status };
      case ForkStatus.DOUBLE_FORGING:
        this.logger.warn(blockFields(block), 'Discarding a block: its generator double-forged');
        this.emitFork(block, status);
        return { kind: 'kept', status };
      case ForkStatus.DISCARD:
        this.logger.info(blockFields(block), 'Discarding a block of a fork without priority');
        this.emitFork(block, status);
        return { kind: 'kept', status };
      case ForkStatus.DIFFERENT_CHAIN:
        this.logger.info(blockFields(block), 'Detected a chain with priority to sync to');
        this.emitFork(block, status);
        return { kind: 'needs-sync', status };
      case ForkStatus.TIE_BREAK:
        this.logger.info(blockFields(block), 'Received a tie-breaking block');
        this.emitFork(block, status);
        return this.replaceTip(writer, block, receivedAt);
    }
  }

  /** The stored tip with its receive time when it came through here. */
  private timedTip(): TimedHeader {
    const header = this.options.processor.tipHeader();
    const arrival = this.tipArrival;
    return arrival?.id.equals(header.id) ? Object.assign(headerFields(header), { receivedAt: arrival.receivedAt }) : header;
  }

  private async extend(writer: TipWriter, block: Block, receivedAt: number): Promise<ReceiveOutcome> {
    let processed: ProcessedBlock;
    try {
      processed = await writer.processBlock(block);
    } catch (error) {
      if (!(error instanceof InvalidBlockError)) throw error;
      this.logger.warn({ ...blockFields(block), reason: error.reason, err: error }, 'Received an invalid block');
      return { kind: 'rejected', status: ForkStatus.VALID_BLOCK, error };
    }
    this.arrived(block, receivedAt);
    this.emitApplied(processed);
    return { kind: 'applied', status: ForkStatus.VALID_BLOCK, processed };
  }

  /**
   * LIP 0014 case 4: check the competitor statically, delete the tip, apply the competitor; if it
   * fails, apply the old tip again (it was valid on the same parent a moment ago).
   */
  private async replaceTip(writer: TipWriter, block: Block, receivedAt: number): Promise<ReceiveOutcome> {
    const { processor, chainStore, maxTransactionsSize } = this.options;
    try {
      block.validate(maxTransactionsSize);
    } catch (error) {
      if (!(error instanceof InvalidBlockError)) throw error;
      this.logger.warn({ ...blockFields(block), reason: error.reason, err: error }, 'Received an invalid tie-breaking block');
      return { kind: 'rejected', status: ForkStatus.TIE_BREAK, error };
    }
    const tip = processor.tipHeader();
    if (tip.height <= chainStore.finalizedHeight()) {
      this.logger.info({ ...blockFields(block), finalizedHeight: tip.height }, 'Keeping the tip: it is final');
      return { kind: 'kept', status: ForkStatus.TIE_BREAK };
    }
    const previousArrival = this.tipArrival;
    const deleted = writer.revertTip();
    this.emitDeleted(deleted);
    try {
      const processed = await writer.processBlock(block);
      this.arrived(block, receivedAt);
      this.emitApplied(processed);
      return { kind: 'replaced', status: ForkStatus.TIE_BREAK, deleted, processed };
    } catch (error) {
      if (!(error instanceof InvalidBlockError)) throw error;
      this.logger.error(
        { ...blockFields(block), previousBlockID: hex(deleted.header.id), reason: error.reason, err: error },
        'Failed to apply the tie-breaking block; restoring the previous tip',
      );
      const restored = await writer.processBlock(deleted);
      this.tipArrival = previousArrival;
      this.emitApplied(restored);
      return { kind: 'rejected', status: ForkStatus.TIE_BREAK, error };
    }
  }

  private arrived(block: Block, receivedAt: number): void {
    this.tipArrival = this.rememberReceivedAt ? { id: block.header.id, receivedAt } : undefined;
  }

  private emitApplied(processed: ProcessedBlock): void {
    this.emit((listener) => listener.blockApplied?.(processed));
  }

  private emitDeleted(block: Block): void {
    this.emit((listener) => listener.blockDeleted?.(block));
  }

  private emitFork(block: Block, status: ForkStatus): void {
    this.emit((listener) => listener.forkDetected?.(block, status));
  }

  /** A failing listener is logged; it never undoes or blocks what the chain did. */
  private emit(call: (listener: BlockReceiverListener) => void): void {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (error) {
        this.logger.error({ err: error }, 'Block receiver listener failed');
      }
    }
  }
}

function headerFields(source: Block | TimedHeader): TimedHeader {
  const { id, height, previousBlockID, generatorAddress, maxHeightPrevoted, timestamp } = 'header' in source ? source.header : source;
  return { id, height, previousBlockID, generatorAddress, maxHeightPrevoted, timestamp };
}

function hex(bytes: Buffer): string {
  return bytes.toString('hex');
}

/** The log fields lisk-sdk logs for a fork. */
function blockFields(block: Block): Record<string, unknown> {
  const { header } = block;
  return {
    id: hex(header.id),
    height: header.height,
    generator: encodeLisk32Address(header.generatorAddress),
    maxHeightPrevoted: header.maxHeightPrevoted,
    maxHeightGenerated: header.maxHeightGenerated,
  };
}
