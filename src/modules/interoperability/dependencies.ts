/**
 * What the interoperability module calls on other modules (lisk-sdk interoperability/types.ts
 * TokenMethod/FeeMethod plus the token calls of its internal methods), typed structurally.
 */
import type { MethodContext, ReadContext } from '../base/index.js';

export interface InteroperabilityTokenMethod {
  /** Creates the escrow account of `chainID` for a native token, charging the escrow initialization fee. */
  initializeEscrowAccount(ctx: MethodContext, chainID: Buffer, tokenID: Buffer): void;
  escrowSubstoreExists(ctx: ReadContext, chainID: Buffer, tokenID: Buffer): boolean;
  isNativeToken(tokenID: Buffer): boolean;
  /** Moves `fee` of the channel's message fee token from `payFromAddress` (escrowed for native tokens). */
  payMessageFee(ctx: MethodContext, payFromAddress: Buffer, receivingChainID: Buffer, fee: bigint): void;
  /** Creates the account of `address` for `tokenID` when missing, charging the account initialization fee. */
  initializeUserAccount(ctx: MethodContext, address: Buffer, tokenID: Buffer): void;
}

export interface InteroperabilityFeeMethod {
  /** Takes `amount` from the fee the transaction still has available; throws when it runs out. */
  payFee(ctx: MethodContext, amount: bigint): void;
}

export interface InteroperabilityDependencies {
  readonly token: InteroperabilityTokenMethod;
  readonly fee: InteroperabilityFeeMethod;
}
