/**
 * Builds real execution contexts over an in-memory state for module unit tests: the same
 * OverlayState, EventQueue and context shapes the state machine uses, with no mocks.
 */
import type { GenesisConfig } from '../../src/config/genesis-config.js';
import { silentLogger } from '../../src/logger.js';
import {
  EventQueue,
  type BlockAfterExecuteContext,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type ExecutionHeader,
  type ExecutionTransaction,
  type GenesisContext,
  type NextValidator,
  type TransactionExecuteContext,
  type TransactionVerifyContext,
} from '../../src/modules/base/index.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { OverlayState } from '../../src/state/overlay-state.js';

export const DEV_CHAIN_ID = Buffer.from('04000000', 'hex');

export const testGenesisConfig: GenesisConfig = {
  chainID: DEV_CHAIN_ID,
  blockTime: 10,
  bftBatchSize: 103,
  maxTransactionsSize: 15360,
  minimumCertifyHeight: 1,
};

export function makeHeader(overrides: Partial<ExecutionHeader> = {}): ExecutionHeader {
  return {
    version: 2,
    height: 1,
    timestamp: 1_700_000_000,
    previousBlockID: Buffer.alloc(32),
    generatorAddress: Buffer.alloc(20),
    maxHeightPrevoted: 0,
    maxHeightGenerated: 0,
    impliesMaxPrevotes: true,
    aggregateCommit: { height: 0, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
    ...overrides,
  };
}

export interface NextValidatorsCall {
  precommitThreshold: bigint;
  certificateThreshold: bigint;
  validators: readonly NextValidator[];
}

/** One block's worth of execution environment over a fresh (or given) in-memory state. */
export class ModuleHarness {
  readonly base: MemoryState;
  state: OverlayState;
  events: EventQueue;
  contextStore = new Map<string, unknown>();
  header: ExecutionHeader;
  assets = new Map<string, Buffer>();
  nextValidators: NextValidatorsCall | undefined;

  constructor(options: { base?: MemoryState; header?: Partial<ExecutionHeader> } = {}) {
    this.base = options.base ?? new MemoryState();
    this.state = new OverlayState(this.base);
    this.header = makeHeader(options.header);
    this.events = EventQueue.forBlock(this.header.height);
  }

  /** Writes the overlay into the base state, as a block commit would, and starts a new block. */
  commit(header: Partial<ExecutionHeader> = {}): void {
    for (const change of this.state.changes()) this.base.put(change.key, change.value);
    this.state = new OverlayState(this.base);
    this.header = makeHeader({ ...this.header, height: this.header.height + 1, ...header });
    this.events = EventQueue.forBlock(this.header.height);
    this.contextStore = new Map();
    this.nextValidators = undefined;
  }

  private readonly setNextValidators = (
    precommitThreshold: bigint,
    certificateThreshold: bigint,
    validators: readonly NextValidator[],
  ): void => {
    this.nextValidators = { precommitThreshold, certificateThreshold, validators };
  };

  genesisContext(stage: 'init' | 'finalize' = 'init'): GenesisContext {
    return {
      state: this.state,
      events: this.events.withDefaultTopic(Buffer.from([stage === 'init' ? 0 : 1])),
      contextStore: this.contextStore,
      chainID: DEV_CHAIN_ID,
      logger: silentLogger,
      header: this.header,
      assets: { getAsset: (module) => this.assets.get(module) },
      setNextValidators: this.setNextValidators,
    };
  }

  transactionVerifyContext(transaction: ExecutionTransaction): TransactionVerifyContext {
    return {
      state: this.state,
      contextStore: this.contextStore,
      chainID: DEV_CHAIN_ID,
      logger: silentLogger,
      header: { height: this.header.height, timestamp: this.header.timestamp },
      transaction,
    };
  }

  commandVerifyContext<P>(transaction: ExecutionTransaction, params: P): CommandVerifyContext<P> {
    return { ...this.transactionVerifyContext(transaction), params };
  }

  transactionExecuteContext(transaction: ExecutionTransaction): TransactionExecuteContext {
    return {
      state: this.state,
      events: this.events.withDefaultTopic(Buffer.concat([Buffer.from([4]), transaction.id])),
      contextStore: this.contextStore,
      chainID: DEV_CHAIN_ID,
      logger: silentLogger,
      header: this.header,
      assets: { getAsset: (module) => this.assets.get(module) },
      transaction,
    };
  }

  commandExecuteContext<P>(transaction: ExecutionTransaction, params: P): CommandExecuteContext<P> {
    return { ...this.transactionExecuteContext(transaction), params };
  }

  blockExecuteContext(stage: 'before' | 'after', transactions: readonly ExecutionTransaction[] = []): BlockAfterExecuteContext {
    return {
      state: this.state,
      events: this.events.withDefaultTopic(Buffer.from([stage === 'before' ? 2 : 3])),
      contextStore: this.contextStore,
      chainID: DEV_CHAIN_ID,
      logger: silentLogger,
      header: this.header,
      assets: { getAsset: (module) => this.assets.get(module) },
      transactions,
      setNextValidators: this.setNextValidators,
    };
  }
}
