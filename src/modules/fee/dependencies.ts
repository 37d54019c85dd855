/**
 * What the fee module needs from other modules, typed structurally (lisk-sdk fee/types.ts
 * TokenMethod): exactly the token methods lisk-sdk's fee module calls, with lisk's parameter
 * order. The token module's `method` object satisfies this without being imported here.
 *
 * Token and fee depend on each other (token's account initialisation calls `fee.payFee`); the
 * token module takes its fee method after construction, as in lisk-sdk:
 * `const token = new TokenModule(); const fee = new FeeModule({ token: token.method });
 *  token.addDependencies({ fee: fee.method });`
 */
import type { CrossChainMessage, MethodContext, ReadContext } from '../base/index.js';

export interface FeeTokenMethod {
  transfer(context: MethodContext, senderAddress: Buffer, recipientAddress: Buffer, tokenID: Buffer, amount: bigint): void;
  burn(context: MethodContext, address: Buffer, tokenID: Buffer, amount: bigint): void;
  lock(context: MethodContext, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void;
  unlock(context: MethodContext, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void;
  getAvailableBalance(context: ReadContext, address: Buffer, tokenID: Buffer): bigint;
  userSubstoreExists(context: ReadContext, address: Buffer, tokenID: Buffer): boolean;
}

/** The interoperability method, as far as the fee module's cross-chain hooks use it (lisk-sdk fee/types.ts). */
export interface FeeInteroperabilityMethod {
  /** The token the fee of a received message is paid in. */
  getMessageFeeTokenIDFromCCM(context: ReadContext, ccm: CrossChainMessage): Buffer;
}

export interface FeeDependencies {
  readonly token: FeeTokenMethod;
  /** Only the cross-chain hooks need it; it may be supplied later with FeeModule.addDependencies. */
  readonly interoperability?: FeeInteroperabilityMethod;
}
