/**
 * The fee module (LIP 0048; lisk-sdk framework/src/modules/fee): the minimum fee and balance
 * checks of every transaction, locking the fee during execution, and paying the part above the
 * minimum to the block generator while burning (or pooling) the rest. As an interoperable module
 * (LIP 0045) it handles the relayer's message fee around every cross-chain message
 * (cross-chain-method.ts); payFee charges that fee while a message is processed.
 */
import type { ModuleInitArgs } from '../../config/genesis-config.js';
import {
  VERIFY_OK,
  verifyFail,
  moduleMetadata,
  type Command,
  type EndpointHandler,
  type Module,
  type ModuleMetadata,
  type ModuleStore,
  type TransactionExecuteContext,
  type TransactionVerifyContext,
  type VerificationResult,
} from '../base/index.js';
import { parseFeeConfig, type FeeConfig } from './config.js';
import { CONTEXT_STORE_KEY_AVAILABLE_FEE, FEE_MODULE_NAME } from './constants.js';
import { contextStoreBigInt } from './context-store.js';
import { FeeCrossChainMethod } from './cross-chain-method.js';
import type { FeeDependencies, FeeInteroperabilityMethod, FeeTokenMethod } from './dependencies.js';
import { createFeeEndpoints } from './endpoint.js';
import { FEE_EVENTS, generatorFeeProcessedEvent } from './events.js';
import { FeeMethod } from './method.js';
import { minimumFee } from './min-fee.js';
import { ExecutionError, InvariantError } from '../../errors.js';

export class FeeModule implements Module {
  readonly name = FEE_MODULE_NAME;
  readonly commands: readonly Command<unknown>[] = [];
  readonly stores: readonly ModuleStore<object>[] = [];
  readonly events = FEE_EVENTS;
  readonly method = new FeeMethod();
  readonly endpoints: Readonly<Record<string, EndpointHandler>> = createFeeEndpoints(this.method);
  /** Hooks the interoperability module calls around every cross-chain message (lisk-sdk FeeInteroperableMethod). */
  readonly crossChainMethod: FeeCrossChainMethod;
  private readonly token: FeeTokenMethod;
  private interoperability: FeeInteroperabilityMethod | undefined;
  private config: FeeConfig | undefined;

  constructor(dependencies: FeeDependencies) {
    this.token = dependencies.token;
    this.interoperability = dependencies.interoperability;
    this.crossChainMethod = new FeeCrossChainMethod(
      this.name,
      this.token,
      () => this.interoperabilityMethod(),
      () => this.configured(),
    );
  }

  /** Supplies the interoperability method, created after the fee module (lisk-sdk FeeModule.addDependencies). */
  addDependencies(dependencies: { interoperability: FeeInteroperabilityMethod }): void {
    this.interoperability = dependencies.interoperability;
  }

  /** Reads `modules.fee` (lisk-sdk FeeModule.init); feeTokenID defaults to chainID ‖ 00000000. */
  init(args: ModuleInitArgs): void {
    this.config = parseFeeConfig(args.moduleConfig, args.genesisConfig);
    this.method.configure(this.config);
  }

  metadata(): ModuleMetadata {
    return moduleMetadata(this, []);
  }

  /** fee ≥ minimum fee, then fee ≤ the sender's available fee-token balance (LIP 0048). */
  verifyTransaction(context: TransactionVerifyContext): VerificationResult {
    const { transaction } = context;
    const config = this.configured();
    const minFee = minimumFee(config, context.header.height, transaction.size);
    if (transaction.fee < minFee) {
      return verifyFail(`Insufficient transaction fee. Minimum required fee is ${minFee}.`);
    }
    const balance = this.token.getAvailableBalance(context, transaction.senderAddress(), config.feeTokenID);
    if (transaction.fee > balance) return verifyFail('Insufficient balance.');
    return VERIFY_OK;
  }

  /**
   * Locks the whole fee for the command's duration and records what the command may still spend
   * (fee − minimum) for payFee. The minimum is re-checked because a dry run may skip verification.
   */
  beforeCommandExecute(context: TransactionExecuteContext): void {
    const { transaction } = context;
    const config = this.configured();
    const minFee = minimumFee(config, context.header.height, transaction.size);
    const availableFee = transaction.fee - minFee;
    if (availableFee < 0n) throw new ExecutionError(`Insufficient transaction fee. Minimum required fee is ${minFee}.`);
    this.token.lock(context, transaction.senderAddress(), this.name, config.feeTokenID, transaction.fee);
    context.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, availableFee);
  }

  /**
   * Unlocks the fee; what is left of the available fee goes to the generator when it holds a
   * fee-token account (else it is burnt too); the rest is burnt, or sent to the fee pool when
   * one is configured and holds an account. Ends with `generatorFeeProcessed`.
   */
  afterCommandExecute(context: TransactionExecuteContext): void {
    const { transaction, header } = context;
    const config = this.configured();
    const sender = transaction.senderAddress();
    const tokenID = config.feeTokenID;
    this.token.unlock(context, sender, this.name, tokenID, transaction.fee);

    let generatorAmount = contextStoreBigInt(context.contextStore, CONTEXT_STORE_KEY_AVAILABLE_FEE);
    if (this.token.userSubstoreExists(context, header.generatorAddress, tokenID)) {
      this.token.transfer(context, sender, header.generatorAddress, tokenID, generatorAmount);
    } else {
      generatorAmount = 0n;
    }

    const consumed = transaction.fee - generatorAmount;
    const pool = config.feePoolAddress;
    if (pool !== undefined && this.token.userSubstoreExists(context, pool, tokenID)) {
      this.token.transfer(context, sender, pool, tokenID, consumed);
    } else {
      this.token.burn(context, sender, tokenID, consumed);
    }

    generatorFeeProcessedEvent.emit(
      context.events,
      { senderAddress: sender, generatorAddress: header.generatorAddress, burntAmount: consumed, generatorAmount },
      [sender, header.generatorAddress],
    );
    context.contextStore.delete(CONTEXT_STORE_KEY_AVAILABLE_FEE);
  }

  private configured(): FeeConfig {
    if (this.config === undefined) throw new InvariantError('The fee module is used before init().');
    return this.config;
  }

  private interoperabilityMethod(): FeeInteroperabilityMethod {
    if (this.interoperability === undefined) {
      throw new InvariantError('fee: the interoperability module method has not been provided');
    }
    return this.interoperability;
  }
}

export { FeeMethod } from './method.js';
export { DEFAULT_MAX_BLOCK_HEIGHT_ZERO_FEE_PER_BYTE, DEFAULT_MIN_FEE_PER_BYTE } from './constants.js';
export { parseFeeConfig, type FeeConfig } from './config.js';
export { minimumFee } from './min-fee.js';
export type { FeeDependencies, FeeInteroperabilityMethod, FeeTokenMethod } from './dependencies.js';
export { FeeCrossChainMethod } from './cross-chain-method.js';
export { generatorFeeProcessedEvent, insufficientFeeEvent, relayerFeeProcessedEvent } from './events.js';
