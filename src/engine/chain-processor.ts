import type { BlockHeader } from '../chain/block-header.js';
import type { Block } from '../chain/block.js';
import type { ChainStore } from '../chain/chain-store.js';
import type { TempBlockStore } from '../chain/temp-block-store.js';
import { blockEventRoot, encodeEvent, type EventProps } from '../chain/event.js';
import type { GenesisConfig } from '../config/genesis-config.js';
import { ConsensusError, InvalidBlockError, StoreError, StoreWriteError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { PreparedStateUpdate, StateDb, WriteSink } from '../state/state-db.js';
import type { StateChange } from '../state/overlay-state.js';
import type { StateReader } from '../state/state-view.js';
import { verifyBlsCheck } from '../crypto/bls-batch.js';
import type { SignatureVerifier } from '../crypto/signature-verifier.js';
import { aggregateCommitVerdict } from './consensus/aggregate-commit.js';
import type { Bft } from './consensus/bft/bft.js';
import type { BlockExecutor, ExecutedBlock } from './block-executor.js';
import { CommittingState } from './committing-state.js';
import { eventsPrunableUpTo, KEEP_ALL_EVENTS } from './event-retention.js';

export interface ChainProcessorOptions {
  readonly chainStore: ChainStore;
  readonly stateDb: StateDb;
  readonly executor: BlockExecutor;
  readonly bft: Bft;
  readonly genesisConfig: GenesisConfig;
  readonly logger: Logger;
  /** Unix seconds; injectable so tests can place "now" anywhere. */
  readonly now?: () => number;
  /**
   * Runs the aggregate commit's BLS check (the worker pool in a node), while the block's
   * transactions execute; without it the check runs on this thread first. Same results.
   */
  readonly signatureVerifier?: SignatureVerifier;
  /** Told how long each phase of a committed block took (the node's metrics); rejected blocks are not timed. */
  readonly onBlockTimed?: (phases: BlockPhaseTimes) => void;
  /**
   * `system.keepEventsForHeights` (src/engine/event-retention.ts): events older than this many
   * heights, and finalized, are dropped as blocks are stored. -1 (the default) keeps them all.
   */
  readonly keepEventsForHeights?: number;
}

/**
 * Seconds spent in each phase of applying one block: `verify` the checks against the tip,
 * `execute` the transactions (and the wait for the aggregate commit's check), `roots` the state,
 * event and validators roots, `commit` the LMDB write.
 */
export interface BlockPhaseTimes {
  verify: number;
  execute: number;
  roots: number;
  commit: number;
}

export interface ProcessedBlock {
  readonly block: Block;
  readonly events: readonly EventProps[];
  /** The finalized height before and after the block (equal when finality did not move). */
  readonly previousFinalizedHeight: number;
  readonly finalizedHeight: number;
}

/**
 * What a block is checked against and executed on: the tip and the state after it, either the
 * stored ones or those of a block whose transaction is still being committed.
 */
interface TipBase {
  readonly header: BlockHeader;
  readonly finalizedHeight: number;
  readonly moduleState: StateReader;
  readonly engineState: StateReader;
  /** `tipChanges` once this tip is stored: a different count means the tip moved meanwhile. */
  readonly tipChanges: number;
}

/** A block checked and executed on a tip, not yet stored; the times are performance.now() readings. */
interface ExecutedOnTip {
  readonly executed: ExecutedBlock;
  readonly finalizedBefore: number;
  readonly tipChanges: number;
  readonly started: number;
  readonly verified: number;
  readonly executedAt: number;
}

/** An executed block whose roots matched its header: what its transaction writes besides the block. */
interface CheckedBlock {
  readonly ready: ExecutedOnTip;
  /** The block's net changes (OverlayState.changes()): the tree update, the diff and the next block's base use them. */
  readonly moduleChanges: readonly StateChange[];
  readonly stateUpdate: PreparedStateUpdate;
  readonly encodedEvents: readonly Buffer[];
  /** performance.now() readings (0 when nobody times blocks). */
  readonly rootsStarted: number;
  readonly rootsChecked: number;
}

/** A block whose transaction is queued: `visible` awaits it (StateDb.queueTransaction). */
interface CommittingBlock {
  /** The block and its events, without the execution's overlays (they are not kept alive meanwhile). */
  readonly block: Block;
  readonly events: readonly EventProps[];
  readonly finalizedBefore: number;
  /** Phase boundaries, performance.now() readings (0 when nobody times blocks). */
  readonly times: {
    readonly started: number;
    readonly verified: number;
    readonly executedAt: number;
    readonly rootsStarted: number;
    readonly rootsChecked: number;
    readonly commitStarted: number;
  };
  readonly visible: () => Promise<void>;
  /** The block's net changes (OverlayState.changes()), as they are written. */
  readonly moduleChanges: readonly StateChange[];
  readonly engineChanges: readonly StateChange[];
  readonly finalizedHeight: number;
  readonly eventsPrunedUpTo: number | undefined;
}

/**
 * The tip-changing operations, handed to a task that holds the tip lock (see `withTipLock`).
 * Calling the processor's own `processBlock` inside such a task would wait for itself.
 */
export interface TipWriter {
  processBlock(block: Block): Promise<ProcessedBlock>;
  /** ChainProcessor.processBlocks. */
  processBlocks(
    blocks: Iterable<Block> | AsyncIterable<Block>,
    onStored?: (processed: ProcessedBlock) => void,
    stopping?: () => boolean,
  ): Promise<boolean>;
  /** Deletes the tip block; with `keepIn`, the block is kept there in the same transaction. */
  revertTip(keepIn?: TempBlockStore): Block;
}

/** Throws unless the (non-empty) `chainStore` holds the chain that starts with `genesis`. */
export function assertStoredGenesis(chainStore: ChainStore, genesis: BlockHeader): void {
  const stored = chainStore.getHeaderByHeight(chainStore.genesisHeight());
  if (!stored?.id.equals(genesis.id)) {
    throw new InvalidBlockError(
      'schema',
      `The data directory holds another chain (genesis ${stored?.id.toString('hex')}).`,
      genesis.height,
    );
  }
}

/**
 * The block-receive path shared by replay, block generation and (later) peer sync: static
 * validation, checks against the tip (lisk-sdk consensus _verify), execution, the post-execution
 * root checks, and one atomic LMDB commit of block, events, state, tree and BFT data.
 * A rejected block leaves the store exactly as it was.
 */
export class ChainProcessor {
  private readonly now: () => number;
  /** Settles when the last task queued for the tip lock has ended. */
  private lockTail: Promise<unknown> = Promise.resolve();
  /** Counts stored and deleted blocks: a block executed against an older tip is never committed. */
  private tipChanges = 0;
  /** A block's transaction is being committed: the tip is about to move. */
  private committing = false;
  /** Events are gone at and below this height (-1: none dropped since the store was opened). */
  private eventsPrunedUpTo = -1;
  private readonly eventsPrunedListeners: ((height: number) => void)[] = [];
  private readonly blockStoredListeners: ((header: BlockHeader) => Promise<void> | void)[] = [];
  /** What block-stored listeners asked the next commit to wait for (a backup being copied). */
  private commitGates: Promise<void>[] = [];
  private readonly storeWriteFailedListeners: ((error: StoreWriteError) => void)[] = [];
  private storeWriteFailure: StoreWriteError | undefined;
  /** Blocks announced by `verifyAhead`, and the index of the next one expected. */
  private upcoming: readonly Block[] = [];
  private upcomingNext = 0;
  private readonly writer: TipWriter = {
    processBlock: (block) => this.applyBlock(block),
    processBlocks: (blocks, onStored, stopping = () => false) => this.applyPipelined(blocks, onStored, stopping),
    revertTip: (keepIn) => this.revertTip(keepIn),
  };

  constructor(private readonly options: ChainProcessorOptions) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /**
   * Runs `task` when every earlier tip-changing task (and `processBlock`) has ended, and lets
   * nothing else apply a block until it ends: a multi-step change such as the fork choice's
   * "revert the tip, apply the competitor, or restore the tip" (LIP 0014 case 4) is never
   * interleaved with block production.
   */
  withTipLock<T>(task: (writer: TipWriter) => Promise<T> | T): Promise<T> {
    const run = this.lockTail
      .then(() => task(this.writer))
      .catch((error: unknown) => {
        if (error instanceof StoreWriteError) this.reportStoreWriteFailure(error);
        throw error;
      });
    this.lockTail = run.catch(() => undefined);
    return run;
  }

  /**
   * Calls `listener` with the height at and below which events were just dropped, after the
   * commit that dropped them (caches of events, such as the RPC's, forget theirs).
   */
  onEventsPruned(listener: (height: number) => void): void {
    this.eventsPrunedListeners.push(listener);
  }

  /**
   * Calls `listener` after each applied block is committed. A promise it returns holds back the
   * commit of the next block (its execution runs meanwhile) until it settles: a backup of the
   * store at this height (system.backup.height) holds exactly this height that way.
   */
  onBlockStored(listener: (header: BlockHeader) => Promise<void> | void): void {
    this.blockStoredListeners.push(listener);
  }

  /**
   * Calls `listener` once, at the first write the store could not commit (a block's, or another
   * writer's that reports it): a full disk takes no more blocks, and a node stops on it.
   */
  onStoreWriteFailed(listener: (error: StoreWriteError) => void): void {
    this.storeWriteFailedListeners.push(listener);
  }

  /** Tells the listeners of `onStoreWriteFailed` (the first report only). */
  reportStoreWriteFailure(error: StoreWriteError): void {
    if (this.storeWriteFailure !== undefined) return;
    this.storeWriteFailure = error;
    for (const listener of this.storeWriteFailedListeners) listener(error);
  }

  /** Holds back the commit of the next block until `gate` settles, as a listener's promise does. */
  holdNextCommit(gate: Promise<void>): void {
    this.commitGates.push(gate);
  }

  /**
   * Says that `blocks` are about to be applied, in this order (a batch fetched from a peer, the
   * next lines of a replayed file): the signatures of the first ones go to the signature verifier
   * now, and as each is applied those of the blocks after it follow, a bounded number at a time
   * (BlockExecutor.planSignatures), so a block's checks run while the blocks before it execute
   * and commit. Only a hint: a block applied that is not the next one announced, a rejected block
   * or a deleted tip forgets the rest, and so does `verifyAhead([])`; results and errors are those
   * of applying the blocks alone.
   */
  verifyAhead(blocks: readonly Block[]): void {
    this.upcoming = blocks;
    this.upcomingNext = 0;
    void this.options.executor.planSignatures(blocks, this.options.stateDb.moduleReader);
  }

  /**
   * Before `block` executes: plans the signatures of the announced blocks that follow it. True
   * when `block` was announced.
   */
  private planAhead(block: Block, state: StateReader): boolean {
    const { upcoming } = this;
    if (upcoming.length === 0) return false;
    const index = upcoming.findIndex((next, i) => i >= this.upcomingNext && next.header.id.equals(block.header.id));
    if (index < 0) {
      this.forgetUpcoming();
      return false;
    }
    this.upcomingNext = index + 1;
    void this.options.executor.planSignatures(upcoming.slice(index), state);
    if (this.upcomingNext === upcoming.length) this.upcoming = [];
    return true;
  }

  private forgetUpcoming(): void {
    if (this.upcoming.length === 0) return;
    this.upcoming = [];
    this.upcomingNext = 0;
    this.options.executor.dropSignaturePlans();
  }

  tipHeader(): BlockHeader {
    const { chainStore } = this.options;
    const header = chainStore.getHeaderByHeight(chainStore.tipHeight());
    if (!header) throw new StoreError('Store inconsistency: the tip header is missing.');
    return header;
  }

  /**
   * Executes and stores the genesis block on an empty store; on a store that already has one,
   * checks it is the same block.
   */
  async initGenesis(block: Block): Promise<void> {
    const { chainStore, stateDb, executor } = this.options;
    const { header } = block;
    if (!chainStore.isEmpty()) {
      assertStoredGenesis(chainStore, header);
      return;
    }
    block.validateGenesis();
    const executed = await executor.executeGenesis(block, stateDb.moduleReader, stateDb.engineReader);
    const moduleChanges = executed.moduleState.changes();
    const { stateUpdate, encodedEvents } = await this.checkRoots(executed, moduleChanges);
    stateDb.transaction(() => {
      stateDb.commit(header.height, moduleChanges, executed.engineState.changes(), stateUpdate);
      chainStore.saveBlock(block, executed.events, header.height, encodedEvents);
    });
  }

  /**
   * Validates, executes and commits a block on top of the tip, under the tip lock. Throws
   * InvalidBlockError.
   */
  processBlock(block: Block): Promise<ProcessedBlock> {
    return this.withTipLock((writer) => writer.processBlock(block));
  }

  /** applyOnTip; a block that fails ends what verifyAhead announced (the rest will not come). */
  private async applyBlock(block: Block): Promise<ProcessedBlock> {
    try {
      return await this.applyOnTip(block);
    } catch (error) {
      this.forgetUpcoming();
      throw error;
    }
  }

  private async applyOnTip(block: Block): Promise<ProcessedBlock> {
    const ready = await this.executeOnTip(block, this.storedTip());
    const checked = await this.checkExecuted(ready, false);
    const committing = await this.commitExecuted(checked, (write) => {
      const stored = this.options.stateDb.transactionAsync(write);
      return () => stored;
    });
    return this.finishCommit(committing);
  }

  /**
   * Applies `blocks` in order, as `processBlock` would one by one, until one fails (it throws,
   * after every block before it is stored) or `stopping` says to stop before the next one
   * (false). `onStored` hears of each block once it is stored and visible, in order.
   *
   * Pipelined: while block N's transaction is on LMDB's write thread, block N+1 is checked
   * against N, executed on N's net changes in front of the store (CommittingState), with N's
   * header and finalized height as the tip, and its roots are checked on the state tree, which
   * moved to N's root when N was queued (StateDb.queueTransaction); N+1's transaction is queued
   * only once N is visible. A failed commit of N is reported before anything about N+1 (the
   * tree goes back to the stored root), and N+1 is then never written. N's visibility is awaited
   * after N+1 has arrived and executed (or failed): an asynchronous source that is slow to hand
   * out N+1 holds N's listeners back meanwhile. For callers that apply many blocks in a row and
   * need nothing between them (sync, replay); block production and single blocks from peers use
   * `processBlock`.
   */
  processBlocks(
    blocks: Iterable<Block> | AsyncIterable<Block>,
    onStored?: (processed: ProcessedBlock) => void,
    stopping: () => boolean = () => false,
  ): Promise<boolean> {
    return this.withTipLock((writer) => writer.processBlocks(blocks, onStored, stopping));
  }

  private async applyPipelined(
    blocks: Iterable<Block> | AsyncIterable<Block>,
    onStored: ((processed: ProcessedBlock) => void) | undefined,
    stopping: () => boolean,
  ): Promise<boolean> {
    const { stateDb } = this.options;
    let inFlight: CommittingBlock | undefined;
    const finish = async (): Promise<void> => {
      if (inFlight === undefined) return;
      const committing = inFlight;
      inFlight = undefined;
      const processed = await this.finishCommit(committing);
      onStored?.(processed);
    };
    try {
      for await (const block of blocks) {
        if (stopping()) {
          await finish();
          return false;
        }
        const base = inFlight === undefined ? this.storedTip() : this.tipAfter(inFlight);
        const ready = await this.executeOnTip(block, base);
        // The tree moved to N's root when N was queued: N+1's roots are checked while N commits.
        const checked = await this.checkExecuted(ready, inFlight !== undefined);
        await finish();
        inFlight = await this.commitExecuted(checked, (write) => {
          const queued = stateDb.queueTransaction(write);
          return () => queued.visible();
        });
      }
      await finish();
      return true;
    } catch (error) {
      this.forgetUpcoming();
      // Whatever failed (the next block, or reading it), the block before it is stored first,
      // and a failure to store it is the one reported.
      await finish();
      throw error;
    }
  }

  /** The stored tip, as a block executes on it. */
  private storedTip(): TipBase {
    const { chainStore, stateDb } = this.options;
    return {
      header: this.tipHeader(),
      finalizedHeight: chainStore.finalizedHeight(),
      moduleState: stateDb.moduleReader,
      engineState: stateDb.engineReader,
      tipChanges: this.tipChanges,
    };
  }

  /** The tip once `committing` is stored: its header and state, from memory. */
  private tipAfter(committing: CommittingBlock): TipBase {
    const { stateDb } = this.options;
    return {
      header: committing.block.header,
      finalizedHeight: committing.finalizedHeight,
      moduleState: new CommittingState(stateDb.moduleReader, committing.moduleChanges),
      engineState: new CommittingState(stateDb.engineReader, committing.engineChanges),
      tipChanges: this.tipChanges + 1,
    };
  }

  /** Static checks, checks against `base` and execution on its state; nothing is written. */
  private async executeOnTip(block: Block, base: TipBase): Promise<ExecutedOnTip> {
    const { executor, genesisConfig } = this.options;
    const { header } = block;
    const timed = this.options.onBlockTimed !== undefined;
    const started = timed ? performance.now() : 0;
    block.validate(genesisConfig.maxTransactionsSize);
    const commitVerdict = this.verifyAgainstTip(block, base);

    const finalizedBefore = base.finalizedHeight;
    const finalizedHeader = this.headerAt(base, finalizedBefore) as BlockHeader;
    const maxRemovalHeight = Math.max(finalizedHeader.aggregateCommit.height, genesisConfig.minimumCertifyHeight - 1);
    const verified = timed ? performance.now() : 0;
    // After the checks against the tip, so that the aggregate commit's check is queued first.
    if (this.planAhead(block, base.moduleState)) await yieldToEventLoop();
    let executed: ExecutedBlock;
    try {
      executed = await executor.execute(block, base.moduleState, base.engineState, maxRemovalHeight);
    } finally {
      // lisk-sdk checks the commit before executing: its error wins over any execution error.
      await this.requireValidCommit(commitVerdict, header.height);
    }
    const executedAt = timed ? performance.now() : 0;
    return { executed, finalizedBefore, tipChanges: base.tipChanges, started, verified, executedAt };
  }

  /**
   * The roots of an executed block, checked against its header. `afterInFlight`: the block
   * executed on a block whose transaction is queued and not yet visible (processBlocks), which
   * the tip does not count yet.
   */
  private async checkExecuted(ready: ExecutedOnTip, afterInFlight: boolean): Promise<CheckedBlock> {
    const { executed } = ready;
    const { height } = executed.block.header;
    const timed = this.options.onBlockTimed !== undefined;
    const tipChanges = ready.tipChanges - (afterInFlight ? 1 : 0);
    // Only the awaits could see the tip move (a revertTip outside the lock): the roots would be
    // checked against a state that is no longer there.
    this.requireTip(tipChanges, height);
    const rootsStarted = timed ? performance.now() : 0;
    // Net changes are computed once: the tree update, the diff and the next block's base use them.
    const moduleChanges = executed.moduleState.changes();
    const { stateUpdate, encodedEvents } = await this.checkRoots(executed, moduleChanges);
    this.requireTip(tipChanges, height);
    const rootsChecked = timed ? performance.now() : 0;
    return { ready, moduleChanges, stateUpdate, encodedEvents, rootsStarted, rootsChecked };
  }

  /**
   * The transaction of a checked block, handed to `write` (which starts it and returns how to
   * await its visibility). From the last tip check to the hand-over, everything is synchronous.
   */
  private async commitExecuted(
    checked: CheckedBlock,
    write: (writeBlock: (writes: WriteSink) => void) => () => Promise<void>,
  ): Promise<CommittingBlock> {
    const { chainStore, stateDb, bft } = this.options;
    const { ready, moduleChanges, stateUpdate, encodedEvents, rootsStarted, rootsChecked } = checked;
    const { executed, finalizedBefore, tipChanges } = ready;
    const { block } = executed;
    const { header } = block;
    const timed = this.options.onBlockTimed !== undefined;
    this.requireTip(tipChanges, header.height);
    if (this.commitGates.length > 0) {
      const gates = this.commitGates;
      this.commitGates = [];
      await Promise.allSettled(gates);
      this.requireTip(tipChanges, header.height);
    }
    const finalizedHeight = Math.max(finalizedBefore, bft.getHeights(executed.engineState).maxHeightPrecommitted);
    const engineChanges = executed.engineState.changes();

    const pruneUpTo = eventsPrunableUpTo(this.options.keepEventsForHeights ?? KEEP_ALL_EVENTS, header.height, finalizedHeight);
    const eventsPrunedUpTo = pruneUpTo > this.eventsPrunedUpTo ? pruneUpTo : undefined;

    const commitStarted = timed ? performance.now() : 0;
    // LMDB's write thread commits the block: this thread is free meanwhile, and the tip moves
    // once the block is visible to every reader (StateDb.transactionAsync). A revertTip in
    // between is refused (`committing`).
    this.committing = true;
    let visible: () => Promise<void>;
    try {
      visible = write((writes) => {
        stateDb.commit(header.height, moduleChanges, engineChanges, stateUpdate);
        chainStore.saveBlock(block, executed.events, finalizedHeight, encodedEvents, writes);
        stateDb.pruneDiffsUpTo(finalizedHeight);
        // lisk-sdk drops old events in a write after the block's; here they go in the block's own
        // transaction, so a crash leaves either both or neither.
        if (eventsPrunedUpTo !== undefined) chainStore.deleteEventsUpTo(eventsPrunedUpTo, writes);
      });
    } catch (error) {
      this.committing = false;
      throw error;
    }
    const { started, verified, executedAt } = ready;
    return {
      block,
      events: executed.events,
      finalizedBefore,
      times: { started, verified, executedAt, rootsStarted, rootsChecked, commitStarted },
      visible,
      moduleChanges,
      engineChanges,
      finalizedHeight,
      eventsPrunedUpTo,
    };
  }

  /** Waits until the block's transaction is visible, then moves the tip and tells the listeners. */
  private async finishCommit(committing: CommittingBlock): Promise<ProcessedBlock> {
    const { stateDb } = this.options;
    const { block, events, finalizedBefore, finalizedHeight, eventsPrunedUpTo, times } = committing;
    const { header } = block;
    try {
      await committing.visible();
    } finally {
      this.committing = false;
    }
    // The fsync that follows may still fail (a disk error): the node stops on it as on a failed commit.
    stateDb.flushed().catch((error: unknown) => {
      if (error instanceof StoreWriteError) this.reportStoreWriteFailure(error);
    });
    this.tipChanges += 1;
    if (eventsPrunedUpTo !== undefined) {
      this.eventsPrunedUpTo = eventsPrunedUpTo;
      for (const listener of this.eventsPrunedListeners) listener(eventsPrunedUpTo);
    }
    for (const listener of this.blockStoredListeners) {
      const gate = listener(header);
      if (gate !== undefined) this.commitGates.push(gate);
    }
    const timed = this.options.onBlockTimed;
    if (timed !== undefined) {
      const committed = performance.now();
      timed({
        verify: (times.verified - times.started) / 1000,
        execute: (times.executedAt - times.verified) / 1000,
        roots: (times.rootsChecked - times.rootsStarted) / 1000,
        commit: (committed - times.commitStarted) / 1000,
      });
    }
    return { block, events, previousFinalizedHeight: finalizedBefore, finalizedHeight };
  }

  /** The header at `height` on `base`'s chain (its tip may not be stored yet). */
  private headerAt(base: TipBase, height: number): BlockHeader | undefined {
    return height === base.header.height ? base.header : this.options.chainStore.getHeaderByHeight(height);
  }

  /**
   * Deletes the tip block and restores the state before it (non-finalized blocks only). Not
   * queued behind the tip lock (it is synchronous); a block executing meanwhile is refused, and
   * so is the revert itself while a block's transaction is being committed. With
   * `keepIn`, the deleted block is saved there atomically with its deletion (sync's temp blocks).
   */
  revertTip(keepIn?: TempBlockStore): Block {
    const { chainStore, stateDb } = this.options;
    if (this.committing) {
      throw new ConsensusError('A block is being committed on the tip; the tip cannot be reverted until it is stored.');
    }
    const height = chainStore.tipHeight();
    if (height <= chainStore.finalizedHeight()) {
      throw new ConsensusError(`Block ${height} is finalized and cannot be reverted.`);
    }
    const parent = chainStore.getHeaderByHeight(height - 1) as BlockHeader;
    const update = stateDb.prepareRevert(height, parent.stateRoot);
    let deleted: Block;
    try {
      deleted = stateDb.transaction(() => {
        stateDb.revert(height, update);
        const block = chainStore.deleteTipBlock();
        keepIn?.save(block);
        return block;
      });
    } catch (error) {
      if (error instanceof StoreWriteError) this.reportStoreWriteFailure(error);
      throw error;
    }
    this.tipChanges += 1;
    this.forgetUpcoming();
    return deleted;
  }

  private requireTip(tipChanges: number, height: number): void {
    if (this.tipChanges !== tipChanges) {
      throw new ConsensusError(`The tip changed while block ${height} was executed; the block was not stored.`);
    }
  }

  private async requireValidCommit(verdict: boolean | Promise<boolean>, height: number): Promise<void> {
    if (!(await verdict)) throw new InvalidBlockError('aggregate-commit', 'Invalid aggregate commit.', height);
  }

  /**
   * lisk-sdk consensus _verify: everything checkable before execution, in lisk's order. The last
   * check, the aggregate commit's signature, may still be running on a worker: its verdict is
   * returned, for applyBlock to await before anything is stored.
   */
  private verifyAgainstTip(block: Block, base: TipBase): boolean | Promise<boolean> {
    const { bft, genesisConfig } = this.options;
    const { header } = block;
    const { height } = header;
    const { engineState, header: tip } = base;

    const slot = bft.slotNumber(header.timestamp);
    if (slot > bft.slotNumber(this.now())) {
      throw new InvalidBlockError('timestamp', `Block timestamp ${header.timestamp} is in a future slot.`, height);
    }
    if (slot <= bft.slotNumber(tip.timestamp)) {
      throw new InvalidBlockError('timestamp', `Block timestamp ${header.timestamp} is not in a slot after its parent's.`, height);
    }
    if (height !== tip.height + 1) {
      throw new InvalidBlockError('height', `Block height ${height} does not follow the tip height ${tip.height}.`, height);
    }
    if (!header.previousBlockID.equals(tip.id)) {
      throw new InvalidBlockError('previous-block-id', `Block does not build on the tip ${tip.id.toString('hex')}.`, height);
    }
    if (header.generatorAddress.length !== 20) {
      throw new InvalidBlockError('generator', 'Generator address must be 20 bytes.', height);
    }
    const expected = bft.generatorAtTimestamp(engineState, height, header.timestamp);
    if (!header.generatorAddress.equals(expected.address)) {
      throw new InvalidBlockError(
        'generator',
        `Generator ${header.generatorAddress.toString('hex')} is not eligible for slot ${slot}.`,
        height,
      );
    }

    const { maxHeightPrevoted } = bft.getHeights(engineState);
    if (header.maxHeightPrevoted !== maxHeightPrevoted) {
      throw new InvalidBlockError(
        'max-height-prevoted',
        `maxHeightPrevoted ${header.maxHeightPrevoted} differs from the expected ${maxHeightPrevoted}.`,
        height,
      );
    }
    if (bft.isHeaderContradictingChain(engineState, header)) {
      throw new InvalidBlockError('contradicting-headers', 'The header contradicts an earlier block of its generator.', height);
    }
    if (header.impliesMaxPrevotes !== bft.impliesMaximalPrevotes(engineState, header)) {
      throw new InvalidBlockError('implies-max-prevotes', 'Invalid impliesMaxPrevotes flag.', height);
    }

    const generator = bft.getParameters(engineState, height).validators.find((v) => v.address.equals(header.generatorAddress));
    if (!generator) {
      throw new InvalidBlockError(
        'generator',
        `Validator ${header.generatorAddress.toString('hex')} is not a validator at height ${height}.`,
        height,
      );
    }
    if (!header.isSignatureValid(generator.generatorKey, genesisConfig.chainID)) {
      throw new InvalidBlockError('signature', 'Invalid block signature.', height);
    }

    const verdict = aggregateCommitVerdict(header.aggregateCommit, {
      bft,
      engineState,
      chainID: genesisConfig.chainID,
      minimumCertifyHeight: genesisConfig.minimumCertifyHeight,
      headerAt: (h) => this.headerAt(base, h),
    });
    if (verdict === false) throw new InvalidBlockError('aggregate-commit', 'Invalid aggregate commit.', height);
    if (verdict === true) return true;
    const { signatureVerifier } = this.options;
    if (signatureVerifier === undefined) {
      if (!verifyBlsCheck(verdict)) throw new InvalidBlockError('aggregate-commit', 'Invalid aggregate commit.', height);
      return true;
    }
    return signatureVerifier.verifyBls([verdict]).then((answers) => answers[0] === true);
  }

  /**
   * validatorsHash, eventRoot and stateRoot of the executed block, their errors in lisk-sdk's
   * order. The state-tree update starts first: with a worker pool it is computed there while this
   * thread computes the other two. Returns the update and the events' encodings (computed for the
   * event root, and stored as they are).
   */
  private async checkRoots(executed: ExecutedBlock, moduleChanges: readonly StateChange[]) {
    const { bft, stateDb } = this.options;
    const { header } = executed.block;
    const pendingUpdate = stateDb.prepareUpdateAsync(moduleChanges);
    // Awaited below, unless an earlier root fails first; that must not leave a rejection unheard.
    pendingUpdate.catch(() => undefined);
    const { validatorsHash } = bft.getParameters(executed.engineState, header.height + 1);
    if (!header.validatorsHash.equals(validatorsHash)) {
      throw new InvalidBlockError(
        'validators-hash',
        `validatorsHash ${header.validatorsHash.toString('hex')} differs from the computed ${validatorsHash.toString('hex')}.`,
        header.height,
      );
    }
    const encodedEvents = executed.events.map(encodeEvent);
    const eventRoot = blockEventRoot(executed.events, encodedEvents);
    if (!header.eventRoot.equals(eventRoot)) {
      throw new InvalidBlockError(
        'event-root',
        `eventRoot ${header.eventRoot.toString('hex')} differs from the computed ${eventRoot.toString('hex')}.`,
        header.height,
      );
    }
    const update = await pendingUpdate;
    if (!header.stateRoot.equals(update.root)) {
      throw new InvalidBlockError(
        'state-root',
        `stateRoot ${header.stateRoot.toString('hex')} differs from the computed ${update.root.toString('hex')}.`,
        header.height,
      );
    }
    return { stateUpdate: update, encodedEvents };
  }
}

/**
 * Lets the event loop run the messages waiting for it before the next block executes. Applying a
 * block that waits for nothing never leaves the microtask queue, and the worker pool's answers and
 * its hand-out of queued tasks arrive as messages: without this turn, the checks of the next
 * blocks would sit answered, or unsent, until a block happened to wait for a worker.
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
