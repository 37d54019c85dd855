/** What other modules may ask the fee module (lisk-sdk fee/method.ts FeeMethod). */
import type { MethodContext } from '../base/index.js';
import type { FeeConfig } from './config.js';
import { CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE, CONTEXT_STORE_KEY_AVAILABLE_FEE, CONTEXT_STORE_KEY_CCM_PROCESSING } from './constants.js';
import { contextStoreBigInt, contextStoreBool } from './context-store.js';
import { insufficientFeeEvent } from './events.js';
import { ExecutionError, InvariantError } from '../../errors.js';

export class FeeMethod {
  private config: FeeConfig | undefined;

  /** Called by FeeModule.init; the method is usable from then on. */
  configure(config: FeeConfig): void {
    this.config = config;
  }

  getFeeTokenID(): Buffer {
    return this.configured().feeTokenID;
  }

  getMinFeePerByte(): number {
    return this.configured().minFeePerByte;
  }

  /**
   * Takes `amount` out of the fee still available to the running transaction (or, while the
   * interoperability module processes a cross-chain message, to that message) (LIP 0048
   * "payFee"). When too little is left: a non-revertible `insufficientFee` event, the available
   * amount is forfeited (everything is burnt afterwards) and the error fails the command.
   */
  payFee(context: MethodContext, amount: bigint): void {
    if (contextStoreBool(context.contextStore, CONTEXT_STORE_KEY_CCM_PROCESSING)) {
      deduct(context, CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE, amount, 'Cross-chain message ran out of fee.');
    } else {
      deduct(context, CONTEXT_STORE_KEY_AVAILABLE_FEE, amount, 'Transaction ran out of fee.');
    }
  }

  private configured(): FeeConfig {
    if (this.config === undefined) throw new InvariantError('The fee module is used before init().');
    return this.config;
  }
}

function deduct(context: MethodContext, key: string, amount: bigint, outOfFeeMessage: string): void {
  const available = contextStoreBigInt(context.contextStore, key);
  if (available < amount) {
    insufficientFeeEvent.emit(context.events, {}, [], true);
    context.contextStore.delete(key);
    throw new ExecutionError(outOfFeeMessage);
  }
  context.contextStore.set(key, available - amount);
}
