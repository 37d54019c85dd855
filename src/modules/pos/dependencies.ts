/**
 * What the pos module calls on other modules (lisk-sdk 6.1 pos/types.ts TokenMethod,
 * ValidatorsMethod, RandomMethod, FeeMethod), declared structurally with only the methods used,
 * so that the real modules' method objects satisfy them without being imported here.
 */
import type { MethodContext, ReadContext, SetNextValidators } from '../base/index.js';

export interface PosTokenMethod {
  lock(ctx: MethodContext, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void;
  unlock(ctx: MethodContext, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void;
  transfer(ctx: MethodContext, senderAddress: Buffer, recipientAddress: Buffer, tokenID: Buffer, amount: bigint): void;
  getLockedAmount(ctx: ReadContext, address: Buffer, tokenID: Buffer, module: string): bigint;
}

/** The context that hands a new validator set to BFT (genesis or after-transactions context). */
export interface PosValidatorsSetter {
  readonly setNextValidators: SetNextValidators;
}

export interface PosValidatorsMethod {
  registerValidatorKeys(
    ctx: MethodContext,
    validatorAddress: Buffer,
    blsKey: Buffer,
    generatorKey: Buffer,
    proofOfPossession: Buffer,
  ): void;
  registerValidatorWithoutBLSKey(ctx: MethodContext, validatorAddress: Buffer, generatorKey: Buffer): boolean;
  setValidatorGeneratorKey(ctx: MethodContext, validatorAddress: Buffer, generatorKey: Buffer): boolean;
  getValidatorKeys(ctx: ReadContext, address: Buffer): { generatorKey: Buffer; blsKey: Buffer };
  /** Missed slots per validator between two timestamps, keyed by the address as a latin1 string. */
  getGeneratorsBetweenTimestamps(ctx: ReadContext, startTimestamp: number, endTimestamp: number): Record<string, number>;
  setValidatorsParams(
    ctx: MethodContext,
    validatorSetter: PosValidatorsSetter,
    preCommitThreshold: bigint,
    certificateThreshold: bigint,
    validators: readonly { readonly address: Buffer; readonly bftWeight: bigint }[],
  ): void;
}

export interface PosRandomMethod {
  getRandomBytes(ctx: ReadContext, height: number, numberOfSeeds: number): Buffer;
}

export interface PosFeeMethod {
  /** Charges `amount` from the transaction's remaining fee (throws when it does not cover it). */
  payFee(ctx: MethodContext, amount: bigint): void;
}

export interface PosDependencies {
  readonly token: PosTokenMethod;
  readonly validators: PosValidatorsMethod;
  readonly random: PosRandomMethod;
  readonly fee: PosFeeMethod;
}
