import type { Block } from '../chain/block.js';
import type { EventProps } from '../chain/event.js';
import { InvalidBlockError } from '../errors.js';
import { EventQueue, VerifyStatus, type NextValidator } from '../modules/base/index.js';
import { OverlayState } from '../state/overlay-state.js';
import type { StateReader } from '../state/state-view.js';
import type { Bft } from './consensus/bft/bft.js';
import { StateMachine, TransactionExecutionResult, type BlockExecution } from './state-machine/state-machine.js';

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

/**
 * Executes blocks against overlays of the committed module and engine state, in lisk-sdk's order
 * (consensus.ts _executeBlock / _executeGenesisBlock): BFT update, module hooks, transactions,
 * module hooks, new BFT parameters. Nothing is written to the database here.
 */
export class BlockExecutor {
  constructor(
    private readonly stateMachine: StateMachine,
    private readonly bft: Bft,
  ) {}

  async executeGenesis(block: Block, moduleBase: StateReader, engineBase: StateReader): Promise<ExecutedBlock> {
    const moduleState = new OverlayState(moduleBase);
    const engineState = new OverlayState(engineBase);
    const { header } = block;
    this.bft.initGenesisState(engineState, header.height);
    let nextValidators: NextValidatorsUpdate | undefined;
    const execution = this.newExecution(block, moduleState, update => {
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

  async execute(
    block: Block,
    moduleBase: StateReader,
    engineBase: StateReader,
    maxRemovalHeight: number,
  ): Promise<ExecutedBlock> {
    const { header } = block;
    const moduleState = new OverlayState(moduleBase);
    const engineState = new OverlayState(engineBase);
    let nextValidators: NextValidatorsUpdate | undefined;
    const execution = this.newExecution(block, moduleState, update => {
      nextValidators = update;
    });

    try {
      await this.stateMachine.verifyAssets(execution, block.assets.all().map(asset => asset.module));
    } catch (error) {
      throw new InvalidBlockError('assets', `Assets rejected: ${(error as Error).message}`, header.height);
    }

    this.bft.beforeTransactionsExecute(engineState, header, maxRemovalHeight);
    await this.guard(header.height, () => this.stateMachine.beforeTransactionsExecute(execution));

    const transactionResults: TransactionExecutionResult[] = [];
    for (const transaction of block.transactions) {
      const verification = await this.stateMachine.verifyTransaction(
        transaction,
        moduleState,
        { height: header.height, timestamp: header.timestamp },
        execution.contextStore,
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

  private newExecution(
    block: Block,
    state: OverlayState,
    onNextValidators: (update: NextValidatorsUpdate) => void,
  ): BlockExecution {
    return {
      state,
      events: EventQueue.forBlock(block.header.height),
      contextStore: new Map(),
      header: block.header,
      assets: block.assets,
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
