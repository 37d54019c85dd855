import { standardEventDataSchema } from '../../chain/schemas.js';
import { codec, validate, type Schema } from '../../codec/index.js';
import type { Ed25519Check, VerifiedSignatures } from '../../crypto/signature-verifier.js';
import type { Logger } from '../../logger.js';
import {
  type EventQueue,
  VerifyStatus,
  type Command,
  type ExecutionAssets,
  type ExecutionHeader,
  type ExecutionTransaction,
  type Module,
  type SetNextValidators,
  type TransactionExecuteContext,
  type VerificationResult,
  verifyFailWith,
} from '../../modules/base/index.js';
import type { StateReader, StateWriter } from '../../state/state-view.js';
import { ExecutionError, ExecutionPanicError, InvariantError } from '../../errors.js';

/** Default first topics of each execution stage (LIP 0065). */
const TOPIC_INIT_GENESIS = Buffer.from([0]);
const TOPIC_FINALIZE_GENESIS = Buffer.from([1]);
const TOPIC_BEFORE_TRANSACTIONS = Buffer.from([2]);
const TOPIC_AFTER_TRANSACTIONS = Buffer.from([3]);
const TOPIC_TRANSACTION_PREFIX = Buffer.from([4]);

export const COMMAND_EXECUTION_RESULT_EVENT = 'commandExecutionResult';

/**
 * The two possible data of `commandExecutionResult`, encoded once. Event data is never written
 * to after it is queued (the event root and the chain store only read it), so every event may
 * share them.
 */
const SUCCESS_EVENT_DATA = codec.encode(standardEventDataSchema, { success: true });
const FAILURE_EVENT_DATA = codec.encode(standardEventDataSchema, { success: false });

/** Outcome of executing one transaction of a block (lisk-sdk TransactionExecutionResult). */
export enum TransactionExecutionResult {
  /** A before/after hook failed: the transaction, and so its block, is invalid. */
  INVALID = -1,
  /** The command failed: included with success false, its state changes rolled back. */
  FAIL = 0,
  OK = 1,
}

/** Everything one block's execution shares across stages (lisk-sdk's execution context). */
export interface BlockExecution {
  readonly state: StateWriter;
  readonly events: EventQueue;
  readonly contextStore: Map<string, unknown>;
  readonly header: ExecutionHeader;
  readonly assets: ExecutionAssets;
  readonly setNextValidators: SetNextValidators;
}

/**
 * Hooks and commands are synchronous nearly always; awaiting their plain results anyway would
 * cost a microtask turn each, several per transaction. Only promises are awaited.
 */
function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

export function transactionTopic(transactionID: Buffer): Buffer {
  return Buffer.concat([TOPIC_TRANSACTION_PREFIX, transactionID]);
}

/**
 * Runs the registered modules' hooks and commands in lisk-sdk's order (state_machine.ts): module
 * hooks in registration order; per transaction: verify hooks, command verify, before hooks,
 * command execute (rolled back alone on failure), after hooks, then the engine's
 * `commandExecutionResult` event.
 */
export class StateMachine {
  /** Commands by module name, then command name (no joined string to build per lookup). */
  private readonly commands = new Map<string, Map<string, Command<unknown>>>();
  /** The command schema each transaction's params were last validated against. */
  private readonly validParams = new WeakMap<ExecutionTransaction, Schema>();

  constructor(
    readonly modules: readonly Module[],
    private readonly chainID: Buffer,
    private readonly logger: Logger,
  ) {
    const names = new Set<string>();
    for (const module of modules) {
      if (names.has(module.name)) throw new InvariantError(`Module ${module.name} is registered twice.`);
      names.add(module.name);
      const commands = new Map<string, Command<unknown>>();
      for (const command of module.commands) commands.set(command.name, command);
      this.commands.set(module.name, commands);
    }
  }

  getModule(name: string): Module | undefined {
    return this.modules.find((module) => module.name === name);
  }

  async executeGenesis(execution: BlockExecution): Promise<void> {
    const base = { ...execution, chainID: this.chainID, logger: this.logger };
    const init = { ...base, events: execution.events.withDefaultTopic(TOPIC_INIT_GENESIS) };
    for (const module of this.modules) await module.initGenesisState?.(init);
    const finalize = { ...base, events: execution.events.withDefaultTopic(TOPIC_FINALIZE_GENESIS) };
    for (const module of this.modules) await module.finalizeGenesisState?.(finalize);
  }

  /** Every asset must belong to a registered module; then each module checks its own. */
  async verifyAssets(execution: BlockExecution, assetModules: readonly string[]): Promise<void> {
    for (const moduleName of assetModules) {
      if (!this.getModule(moduleName)) throw new ExecutionError(`Module ${moduleName} is not registered.`);
    }
    const context = { ...this.readContext(execution), header: execution.header, assets: execution.assets };
    for (const module of this.modules) await module.verifyAssets?.(context);
  }

  /** Block generation: modules add their assets (the random module its seed reveal). */
  async insertAssets(execution: BlockExecution, setAsset: (module: string, data: Buffer) => void, finalizedHeight: number): Promise<void> {
    const context = {
      ...this.readContext(execution),
      header: execution.header,
      setAsset,
      getFinalizedHeight: () => finalizedHeight,
    };
    for (const module of this.modules) await module.insertAssets?.(context);
  }

  async beforeTransactionsExecute(execution: BlockExecution): Promise<void> {
    const context = this.blockContext(execution, TOPIC_BEFORE_TRANSACTIONS);
    for (const module of this.modules) await module.beforeTransactionsExecute?.(context);
  }

  async afterTransactionsExecute(execution: BlockExecution, transactions: readonly ExecutionTransaction[]): Promise<void> {
    const context = {
      ...this.blockContext(execution, TOPIC_AFTER_TRANSACTIONS),
      transactions,
      setNextValidators: execution.setNextValidators,
    };
    for (const module of this.modules) await module.afterTransactionsExecute?.(context);
  }

  /**
   * Every Ed25519 check the modules' verifyTransaction hooks would make for `transactions`
   * against `state`, for one batched verification ahead of them. A module that cannot say (its
   * hook throws on a malformed transaction) contributes nothing: verifyTransaction reports that
   * transaction's error itself.
   */
  signatureChecks(transactions: readonly ExecutionTransaction[], state: StateReader): Ed25519Check[] {
    const checks: Ed25519Check[] = [];
    for (const transaction of transactions) {
      const context = { state, chainID: this.chainID, logger: this.logger, transaction };
      for (const module of this.modules) {
        if (!module.signatureChecks) continue;
        try {
          checks.push(...module.signatureChecks(context));
        } catch {
          // Left to verifyTransaction, which fails this transaction with the module's own error.
        }
      }
    }
    return checks;
  }

  /**
   * Verification of one transaction against `state` (module verify hooks, then params and the
   * command's verify). Never throws: every failure is a FAIL result carrying the error.
   */
  async verifyTransaction(
    transaction: ExecutionTransaction,
    state: StateReader,
    header: { height: number; timestamp: number },
    contextStore: Map<string, unknown> = new Map(),
    onlyCommand = false,
    verifiedSignatures?: VerifiedSignatures,
  ): Promise<VerificationResult> {
    const context = { state, contextStore, chainID: this.chainID, logger: this.logger, header, transaction, verifiedSignatures };
    try {
      if (!onlyCommand) {
        for (const module of this.modules) {
          if (!module.verifyTransaction) continue;
          const answer = module.verifyTransaction(context);
          const result = isThenable(answer) ? await answer : answer;
          if (result.status !== VerifyStatus.OK) return result;
        }
      }
      const command = this.command(transaction);
      const params = this.decodeParams(command, transaction);
      if (command.verify) {
        // A literal, not `{ ...context, params }`: a spread plus one more property leaves V8's fast
        // object-clone path and costs about a microsecond per transaction.
        const answer = command.verify({
          state,
          contextStore,
          chainID: this.chainID,
          logger: this.logger,
          header,
          transaction,
          verifiedSignatures,
          params,
        });
        const result = isThenable(answer) ? await answer : answer;
        if (result.status !== VerifyStatus.OK) return result;
      }
      return { status: VerifyStatus.OK };
    } catch (error) {
      return verifyFailWith(error);
    }
  }

  /** Runs one command hook of every module in order; false as soon as one throws. */
  private async commandHooksPass(
    hook: 'beforeCommandExecute' | 'afterCommandExecute',
    context: TransactionExecuteContext,
  ): Promise<boolean> {
    for (const module of this.modules) {
      const run = module[hook];
      if (!run) continue;
      try {
        const done = run.call(module, context);
        if (isThenable(done)) await done;
      } catch (error) {
        this.logger.debug({ err: error, module: module.name }, `${hook} failed`);
        return false;
      }
    }
    return true;
  }

  /** Executes a verified transaction inside a block (lisk-sdk StateMachine.executeTransaction). */
  async executeTransaction(execution: BlockExecution, transaction: ExecutionTransaction): Promise<TransactionExecutionResult> {
    const topic = transactionTopic(transaction.id);
    const events = execution.events.withDefaultTopic(topic);
    const context = {
      state: execution.state,
      events,
      contextStore: execution.contextStore,
      chainID: this.chainID,
      logger: this.logger,
      header: execution.header,
      assets: execution.assets,
      transaction,
    };
    const eventsBefore = execution.events.snapshot();
    const stateBefore = execution.state.snapshot();
    const invalid = (): TransactionExecutionResult => {
      execution.events.restore(eventsBefore);
      execution.state.restore(stateBefore);
      return TransactionExecutionResult.INVALID;
    };

    if (!(await this.commandHooksPass('beforeCommandExecute', context))) return invalid();

    let result = TransactionExecutionResult.OK;
    const command = this.command(transaction);
    const commandEventsBefore = execution.events.snapshot();
    const commandStateBefore = execution.state.snapshot();
    try {
      const params = this.decodeParams(command, transaction);
      const done = command.execute({
        state: context.state,
        events,
        contextStore: context.contextStore,
        chainID: this.chainID,
        logger: this.logger,
        header: context.header,
        assets: context.assets,
        transaction,
        params,
      });
      if (isThenable(done)) await done;
    } catch (error) {
      if (error instanceof ExecutionPanicError) {
        // Nothing of the transaction stays behind; the caller decides about the block.
        invalid();
        throw error;
      }
      execution.events.restore(commandEventsBefore);
      execution.state.restore(commandStateBefore);
      result = TransactionExecutionResult.FAIL;
      this.logger.debug({ err: error, module: transaction.module, command: transaction.command }, 'Command execution failed');
    }

    if (!(await this.commandHooksPass('afterCommandExecute', context))) return invalid();

    execution.events.addUnchecked(
      transaction.module,
      COMMAND_EXECUTION_RESULT_EVENT,
      result === TransactionExecutionResult.OK ? SUCCESS_EVENT_DATA : FAILURE_EVENT_DATA,
      [topic],
    );
    return result;
  }

  private command(transaction: ExecutionTransaction): Command<unknown> {
    const command = this.commands.get(transaction.module)?.get(transaction.command);
    if (command) return command;
    if (!this.getModule(transaction.module)) throw new ExecutionError(`Module ${transaction.module} is not registered.`);
    throw new ExecutionError(`Module ${transaction.module} does not have command ${transaction.command} registered.`);
  }

  private decodeParams(command: Command<unknown>, transaction: ExecutionTransaction): unknown {
    const params = codec.decode<Record<string, unknown>>(command.schema, transaction.params);
    // Verification and execution both decode the params (each gets its own object, as in
    // lisk-sdk); the values only depend on the transaction's bytes, so once they passed the
    // schema for this transaction they pass again.
    if (this.validParams.get(transaction) !== command.schema) {
      validate(command.schema, params);
      this.validParams.set(transaction, command.schema);
    }
    return params;
  }

  private readContext(execution: BlockExecution) {
    return { state: execution.state, contextStore: execution.contextStore, chainID: this.chainID, logger: this.logger };
  }

  private blockContext(execution: BlockExecution, topic: Buffer) {
    return {
      state: execution.state,
      events: execution.events.withDefaultTopic(topic),
      contextStore: execution.contextStore,
      chainID: this.chainID,
      logger: this.logger,
      header: execution.header,
      assets: execution.assets,
    };
  }
}
