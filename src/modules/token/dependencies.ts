/**
 * What the token module needs from other modules, typed structurally (lisk-sdk token/types.ts
 * FeeMethod and InteroperabilityMethod, reduced to the methods token calls) so that the real
 * modules' method objects satisfy these interfaces without being imported here.
 *
 * Token and fee depend on each other (fee locks and burns through TokenMethod; token charges
 * initialization fees through FeeMethod.payFee), so dependencies can be supplied after
 * construction with `TokenModule.addDependencies`, as in lisk-sdk.
 */
import type { CrossChainMessage, MethodContext, ReadContext } from '../base/index.js';
import { InvariantError } from '../../errors.js';

/** The fee module's method (lisk-sdk FeeMethod.payFee). */
export interface FeeMethod {
  /**
   * Charges `amount` to the fee still available in the current transaction (or CCM); when it
   * does not cover `amount`, emits fee's `insufficientFee` event and throws.
   */
  payFee(context: MethodContext, amount: bigint): void;
}

/** The interoperability module's method, as far as token's commands and methods use it. */
export interface InteroperabilityMethod {
  /** The token message fees to `chainID` are paid in; throws when no channel to it exists. */
  getMessageFeeTokenID(context: ReadContext, chainID: Buffer): Buffer;
  /** The token the fee of a received message is paid in (that of the channel to its sending chain). */
  getMessageFeeTokenIDFromCCM(context: ReadContext, ccm: CrossChainMessage): Buffer;
  /** Sends a cross-chain message (LIP 0045 `send`). */
  send(
    context: MethodContext,
    feeAddress: Buffer,
    module: string,
    crossChainCommand: string,
    receivingChainID: Buffer,
    fee: bigint,
    parameters: Buffer,
    timestamp?: number,
  ): void;
}

export interface TokenDependencies {
  fee?: FeeMethod;
  interoperability?: InteroperabilityMethod;
}

/** The dependencies of one token module instance, shared by its method, commands and internals. */
export class TokenDependencySlots {
  private feeMethod: FeeMethod | undefined;
  private interoperabilityMethod: InteroperabilityMethod | undefined;

  constructor(dependencies: TokenDependencies = {}) {
    this.add(dependencies);
  }

  add(dependencies: TokenDependencies): void {
    if (dependencies.fee !== undefined) this.feeMethod = dependencies.fee;
    if (dependencies.interoperability !== undefined) this.interoperabilityMethod = dependencies.interoperability;
  }

  get fee(): FeeMethod {
    if (this.feeMethod === undefined) throw new InvariantError('token: the fee module method has not been provided');
    return this.feeMethod;
  }

  get interoperability(): InteroperabilityMethod {
    if (this.interoperabilityMethod === undefined) {
      throw new InvariantError('token: the interoperability module method has not been provided');
    }
    return this.interoperabilityMethod;
  }
}
