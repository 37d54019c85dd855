import { BlockAssets } from '../chain/block-assets.js';
import type { Block } from '../chain/block.js';
import type { EventProps } from '../chain/event.js';
import type { Transaction } from '../chain/transaction.js';
import { VerifiedSignatureSet, type SignatureVerifier, type VerifiedSignatures } from '../crypto/signature-verifier.js';
import { InvalidBlockError } from '../errors.js';
import { EventQueue, VerifyStatus, type ExecutionAssets, type ExecutionHeader, type NextValidator } from '../modules/base/index.js';
import { OverlayState } from '../state/overlay-state.js';
import type { StateReader } from '../state/state-view.js';
import type { Bft } from './consensus/bft/bft.js';
import { selectTransactionsForBlock, StateMachineInclusion } from './txpool/block-selection.js';
import type { ProcessableTransactions } from './txpool/transaction-pool.js';
import { SignaturePlans, verifySignaturesAhead } from './signatures-ahead.js';
import { type StateMachine, TransactionExecutionResult, type BlockExecution } from './state-machine/state-machine.js';

export interface NextValidatorsUpdate {
  readonly precommitThreshold: bigint;
  readonly certificateThreshold: bigint;
  readonly validators: readonly NextValidator[];
}

/** The uncommitted result of executing one block: overlays over the committed states. */
export interface ExecutedBlock {
  readonly block: Block;
  readonly moduleState: OverlayState;
  readonly engineState: OverlayState;
  readonly events: EventProps[];
  readonly nextValidators: NextValidatorsUpdate | undefined;
  readonly transactionResults: TransactionExecutionResult[];
}

export interface GenerationInput {
  /** The header being generated: everything but the roots and the signature is final. */
  readonly header: ExecutionHeader & { readonly aggregateCommit: Block['header']['aggregateCommit'] };
  readonly moduleBase: StateReader;
  readonly engineBase: StateReader;
  readonly maxRemovalHeight: number;
  readonly finalizedHeight: number;
  readonly maxTransactionsSize: number;
  readonly candidates: ProcessableTransactions;
}

export interface GeneratedExecution {
  readonly assets: BlockAssets;
  readonly transactions: Transaction[];
  /** Candidates whose execution made a hook throw: they can never be in a block. */
  readonly invalid: Transaction[];
  readonly moduleState: OverlayState;
  readonly engineState: OverlayState;
  readonly events: EventProps[];
  readonly nextValidators: NextValidatorsUpdate | undefined;
}

/** What is about to execute: a block, the candidates of a block being generated, one dry run. */
export interface WorkAheadInput {
  readonly transactions: readonly Transaction[];
  /** The block's assets (the genesis block's carry the initial validators). */
  readonly assets?: Pick<BlockAssets, 'getAsset'>;
  /** The module state they execute on (read only): work that depends on it is built on it. */
  readonly moduleState?: StateReader;
}

/**
 * Work done before transactions execute, whose answers execution then reads synchronously: the
 * proofs of possession they (or the genesis assets) register and the certificate signatures of
 * their cross-chain updates, checked in the worker pool while nothing waits on this thread. `prepare` resolves once the answers are in place; `release`
 * (with the same object) drops them after execution, whatever the outcome. Answers are pure
 * functions of their inputs, so execution gives the same result with or without them.
 */
export interface BlockWorkAhead {
  prepare(work: WorkAheadInput, genesis: boolean): Promise<void>;
  release(work: WorkAheadInput): void;
}

/**
 * Blocks whose signatures may be verified ahead of their execution: one is enough when blocks
 * come faster than they apply (the verifier checks the next block's 100-odd signatures while this
 * one executes and commits); a second one absorbs a block that happens to take longer.
 */
export const DEFAULT_SIGNATURES_AHEAD = 2;

/**
 * Executes blocks against overlays of the committed module and engine state, in lisk-sdk's order
 * (consensus.ts _executeBlock / _executeGenesisBlock): BFT update, module hooks, transactions,
 * module hooks, new BFT parameters. Nothing is written to the database here.
 */
export class BlockExecutor {
  private readonly signaturePlans: SignaturePlans | undefined;

  /**
   * `signatureVerifier`, when given, checks the signatures of a block's transactions in one batch
   * (the worker pool by default in a node) while they execute (see `execute`); without it each
   * transaction's signatures are checked on this thread as it is verified. The results are the
   * same. `workAhead`, when given, runs before each block (BlockWorkAhead). `signaturesAhead`:
   * how many blocks after the one executing may have their signatures in the verifier at once
   * (planSignatures).
   */
  constructor(
    private readonly stateMachine: StateMachine,
    private readonly bft: Bft,
    private readonly signatureVerifier?: SignatureVerifier,
    private readonly workAhead?: BlockWorkAhead,
    signaturesAhead = DEFAULT_SIGNATURES_AHEAD,
  ) {
    this.signaturePlans = signatureVerifier && new SignaturePlans(stateMachine, signatureVerifier, signaturesAhead);
  }

  async executeGenesis(block: Block, moduleBase: StateReader, engineBase: StateReader): Promise<ExecutedBlock> {
    const work = { transactions: block.transactions, assets: block.assets, moduleState: moduleBase };
    return this.withWorkAhead(work, true, () => this.executeGenesisBlock(block, moduleBase, engineBase));
  }

  /**
   * Executes `block` on overlays over the committed states. With a signature verifier, the
   * block's signatures are verified in the pool while its transactions execute, every planned
   * check taken as good meanwhile; blocks are valid nearly always, and then the result is the one
   * in-order checking gives. If a check fails, the block executes again from the start with the
   * real answers, so the error is exactly the in-order one (lisk-sdk reports the first failing
   * transaction, whichever way it fails). A block whose checks were planned ahead
   * (planSignatures) uses the plan: its answers when they are in, else the same optimistic run
   * against them. Work ahead (BlockWorkAhead) is ready before it starts.
   */
  async execute(block: Block, moduleBase: StateReader, engineBase: StateReader, maxRemovalHeight: number): Promise<ExecutedBlock> {
    const work = { transactions: block.transactions, assets: block.assets, moduleState: moduleBase };
    return this.withWorkAhead(work, false, () => this.executeBlock(block, moduleBase, engineBase, maxRemovalHeight));
  }

  private async withWorkAhead<R>(work: WorkAheadInput, genesis: boolean, execute: () => Promise<R>): Promise<R> {
    const ahead = this.workAhead;
    if (ahead === undefined) return execute();
    await ahead.prepare(work, genesis);
    try {
      return await execute();
    } finally {
      ahead.release(work);
    }
  }

  private async executeGenesisBlock(block: Block, moduleBase: StateReader, engineBase: StateReader): Promise<ExecutedBlock> {
    const moduleState = new OverlayState(moduleBase);
    const engineState = new OverlayState(engineBase);
    const { header } = block;
    this.bft.initGenesisState(engineState, header.height);
    let nextValidators: NextValidatorsUpdate | undefined;
    const execution = this.newExecution(block, moduleState, (update) => {
      nextValidators = update;
    });
    await this.stateMachine.executeGenesis(execution);
    if (!nextValidators) {
      throw new InvalidBlockError('execution', 'The genesis state sets no validators.', header.height);
    }
    const update: NextValidatorsUpdate = nextValidators;
    this.bft.setParameters(engineState, update.precommitThreshold, update.certificateThreshold, update.validators);
    return { block, moduleState, engineState, events: indexed(execution.events), nextValidators: update, transactionResults: [] };
  }

  private async executeBlock(
    block: Block,
    moduleBase: StateReader,
    engineBase: StateReader,
    maxRemovalHeight: number,
  ): Promise<ExecutedBlock> {
    const verifier = this.signatureVerifier;
    if (verifier === undefined) return this.executeOnce(block, moduleBase, engineBase, maxRemovalHeight, async () => undefined);
    const plan = this.signaturePlans?.take(block);
    let allVerified: Promise<boolean> | undefined;
    const optimistic = async (transactions: readonly Transaction[], state: StateReader): Promise<VerifiedSignatures | undefined> => {
      if (transactions.length === 0) return undefined;
      // Planned ahead and already answered: the real answers, nothing left to wait for.
      const answered = plan?.verifiedNow();
      if (answered !== undefined) return answered;
      const checks = plan?.checks ?? this.stateMachine.signatureChecks(transactions, state);
      const answers =
        plan !== undefined ? plan.answers.then((settled) => settled ?? verifier.verifyEd25519(checks)) : verifier.verifyEd25519(checks);
      allVerified = answers.then((settled) => settled.every((answer) => answer));
      // Awaited below on every path; a rejection must not go unheard before that.
      allVerified.catch(() => undefined);
      return VerifiedSignatureSet.fromAnswers(
        checks,
        checks.map(() => true),
      );
    };
    try {
      const executed = await this.executeOnce(block, moduleBase, engineBase, maxRemovalHeight, optimistic);
      if (allVerified === undefined || (await allVerified)) return executed;
    } catch (error) {
      if (allVerified === undefined || (await allVerified)) throw error;
    }
    // A check failed: again, with the real answers (the plan's when it has them).
    return this.executeOnce(
      block,
      moduleBase,
      engineBase,
      maxRemovalHeight,
      async (transactions, state) => plan?.verifiedNow() ?? verifySignaturesAhead(this.stateMachine, verifier, transactions, state),
    );
  }

  /**
   * Starts verifying the signatures of `blocks[0]` (the block about to execute) and of the next
   * ones, expected to be applied after it in that order (SignaturePlans), planned against `state`
   * (the committed state); plans of any other block are dropped. Nothing happens without a
   * signature verifier. Settles when the planned answers are in (callers need not wait for it).
   */
  async planSignatures(blocks: readonly Block[], state: StateReader): Promise<void> {
    const plans = this.signaturePlans;
    if (plans === undefined) return;
    const planned = blocks.slice(0, plans.limit + 1);
    plans.retainOnly(planned);
    await Promise.all(planned.map((block, i) => plans.plan(block, state, i === 0)?.answers));
  }

  /** Drops every signature plan (the blocks they were for will not be applied next). */
  dropSignaturePlans(): void {
    this.signaturePlans?.retainOnly([]);
  }

  private async executeOnce(
    block: Block,
    moduleBase: StateReader,
    engineBase: StateReader,
    maxRemovalHeight: number,
    signaturesAhead: (transactions: readonly Transaction[], state: StateReader) => Promise<VerifiedSignatures | undefined>,
  ): Promise<ExecutedBlock> {
    const { header } = block;
    const moduleState = new OverlayState(moduleBase);
    const engineState = new OverlayState(engineBase);
    let nextValidators: NextValidatorsUpdate | undefined;
    const execution = this.newExecution(block, moduleState, (update) => {
      nextValidators = update;
    });

    try {
      await this.stateMachine.verifyAssets(
        execution,
        block.assets.all().map((asset) => asset.module),
      );
    } catch (error) {
      throw new InvalidBlockError('assets', `Assets rejected: ${(error as Error).message}`, header.height);
    }

    this.bft.beforeTransactionsExecute(engineState, header, maxRemovalHeight);
    await this.guard(header.height, () => this.stateMachine.beforeTransactionsExecute(execution));

    const verifiedSignatures = await signaturesAhead(block.transactions, moduleState);
    const transactionResults: TransactionExecutionResult[] = [];
    for (const transaction of block.transactions) {
      const verification = await this.stateMachine.verifyTransaction(
        transaction,
        moduleState,
        { height: header.height, timestamp: header.timestamp },
        execution.contextStore,
        false,
        verifiedSignatures,
      );
      if (verification.status !== VerifyStatus.OK) {
        const reason = verification.error?.message ?? (verification.status === VerifyStatus.PENDING ? 'nonce is in the future' : 'unknown');
        throw new InvalidBlockError(
          'transaction-failed-verification',
          `Transaction ${transaction.id.toString('hex')} failed verification: ${reason}`,
          header.height,
        );
      }
      const result = await this.stateMachine.executeTransaction(execution, transaction);
      if (result === TransactionExecutionResult.INVALID) {
        throw new InvalidBlockError('execution', `Transaction ${transaction.id.toString('hex')} is invalid in this block.`, header.height);
      }
      transactionResults.push(result);
    }

    await this.guard(header.height, () => this.stateMachine.afterTransactionsExecute(execution, block.transactions));
    const update = nextValidators as NextValidatorsUpdate | undefined;
    if (update && !isEmptyUpdate(update)) {
      this.bft.setParameters(engineState, update.precommitThreshold, update.certificateThreshold, update.validators);
    }
    return { block, moduleState, engineState, events: indexed(execution.events), nextValidators: update, transactionResults };
  }

  /**
   * Executes a block being generated (lisk-sdk generator _generateBlock with its forging
   * strategy, see txpool/block-selection.ts): the modules insert their assets, then candidate
   * transactions are verified and executed one by one on the state the previous ones left. Work
   * ahead covers every candidate, since any may be included.
   */
  async generate(input: GenerationInput): Promise<GeneratedExecution> {
    const candidates = { transactions: [...input.candidates.byAccount.values()].flat(), moduleState: input.moduleBase };
    return this.withWorkAhead(candidates, false, () => this.generateBlock(input));
  }

  private async generateBlock(input: GenerationInput): Promise<GeneratedExecution> {
    const { header } = input;
    const moduleState = new OverlayState(input.moduleBase);
    const engineState = new OverlayState(input.engineBase);
    const assets = new BlockAssets();
    let nextValidators: NextValidatorsUpdate | undefined;
    const execution = this.newExecutionFor(header, assets, moduleState, (update) => {
      nextValidators = update;
    });

    await this.stateMachine.insertAssets(execution, (module, data) => assets.setAsset(module, data), input.finalizedHeight);
    this.bft.beforeTransactionsExecute(engineState, header, input.maxRemovalHeight);
    await this.stateMachine.beforeTransactionsExecute(execution);

    const selection = await selectTransactionsForBlock(
      input.candidates,
      input.maxTransactionsSize,
      new StateMachineInclusion(this.stateMachine, execution),
    );
    const { transactions } = selection;

    await this.stateMachine.afterTransactionsExecute(execution, transactions);
    const update = nextValidators as NextValidatorsUpdate | undefined;
    if (update && !isEmptyUpdate(update)) {
      this.bft.setParameters(engineState, update.precommitThreshold, update.certificateThreshold, update.validators);
    }
    return {
      assets,
      transactions,
      invalid: selection.invalid,
      moduleState,
      engineState,
      events: indexed(execution.events),
      nextValidators: update,
    };
  }

  private newExecution(block: Block, state: OverlayState, onNextValidators: (update: NextValidatorsUpdate) => void): BlockExecution {
    return this.newExecutionFor(block.header, block.assets, state, onNextValidators);
  }

  private newExecutionFor(
    header: ExecutionHeader,
    assets: ExecutionAssets,
    state: OverlayState,
    onNextValidators: (update: NextValidatorsUpdate) => void,
  ): BlockExecution {
    return {
      state,
      events: EventQueue.forBlock(header.height),
      contextStore: new Map(),
      header,
      assets,
      setNextValidators: (precommitThreshold, certificateThreshold, validators) =>
        onNextValidators({ precommitThreshold, certificateThreshold, validators }),
    };
  }

  private async guard(height: number, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (error instanceof InvalidBlockError) throw error;
      throw new InvalidBlockError('execution', `Block execution failed: ${(error as Error).message}`, height);
    }
  }
}

/** lisk-sdk isEmptyConsensusUpdate: thresholds 0 and no validators mean "no change". */
function isEmptyUpdate(update: NextValidatorsUpdate): boolean {
  return update.precommitThreshold === 0n && update.certificateThreshold === 0n && update.validators.length === 0;
}

/** The block's events with indexes equal to their final positions (lisk-sdk re-indexes them). */
function indexed(queue: EventQueue): EventProps[] {
  return queue.events().map((event, index) => ({ ...event, index }));
}
