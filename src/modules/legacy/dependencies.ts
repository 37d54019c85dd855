/**
 * What the legacy module calls on other modules (lisk-core passes lisk-sdk's TokenMethod,
 * ValidatorsMethod and PoSMethod), declared structurally with only the methods it uses, so that
 * the real modules' method objects satisfy them without being imported here.
 */
import type { MethodContext, ReadContext } from '../base/index.js';

export interface LegacyTokenMethod {
  /** Amount of `tokenID` that `module` has locked on `address`; 0 without an account or a lock. */
  getLockedAmount(ctx: ReadContext, address: Buffer, tokenID: Buffer, module: string): bigint;
  unlock(ctx: MethodContext, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void;
  transfer(ctx: MethodContext, senderAddress: Buffer, recipientAddress: Buffer, tokenID: Buffer, amount: bigint): void;
}

export interface LegacyValidatorsMethod {
  /** Throws `No validator account found for the input address.` for a non-validator. */
  getValidatorKeys(ctx: ReadContext, address: Buffer): { readonly generatorKey: Buffer; readonly blsKey: Buffer };
  setValidatorGeneratorKey(ctx: MethodContext, validatorAddress: Buffer, generatorKey: Buffer): void;
  /** Checks that the key is not taken and that the proof of possession verifies; throws otherwise. */
  setValidatorBLSKey(ctx: MethodContext, validatorAddress: Buffer, blsKey: Buffer, proofOfPossession: Buffer): void;
}

export interface LegacyPosMethod {
  /** Throws when the validator is not banned or is banned permanently. */
  unbanValidator(ctx: MethodContext, address: Buffer): void;
}

export interface LegacyDependencies {
  readonly token: LegacyTokenMethod;
  readonly validators: LegacyValidatorsMethod;
  readonly pos: LegacyPosMethod;
}
