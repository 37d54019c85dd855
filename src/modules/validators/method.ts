/**
 * The validators module's method (LIP 0044 "Protocol Logic for Other Modules"; lisk-sdk
 * validators/method.ts): key registration for PoS and legacy, key lookups, and the validator set
 * handed to BFT. Checks run in lisk-sdk's order, because the first failing check decides which
 * (non-revertible) event the failed command leaves behind.
 */
import { validate } from '../../codec/index.js';
import { FormatError, InvalidParamsError, NotFoundError } from '../../errors.js';
import type { MethodContext, NextValidator, ReadContext, SetNextValidators } from '../base/index.js';
import {
  ADDRESS_LENGTH,
  BLS_POP_LENGTH,
  BLS_PUBLIC_KEY_LENGTH,
  ED25519_PUBLIC_KEY_LENGTH,
  EMPTY_KEY,
  INVALID_BLS_KEY,
  KeyRegResult,
} from './constants.js';
import { logBlsKeyRegistration, logGeneratorKeyRegistration } from './events.js';
import { POP_CHECKS_ON_THIS_THREAD, type ProofOfPossessionChecks } from './pop-checks.js';
import {
  blsKeysStore,
  validatorKeysSchema,
  validatorKeysStore,
  validatorsParamsStore,
  type BLSKeyOwner,
  type ParamsValidator,
  type ValidatorKeys,
  type ValidatorsParams,
} from './stores.js';

/** What receives the new validator set: the genesis or after-transactions hook context. */
export interface NextValidatorsSetter {
  readonly setNextValidators: SetNextValidators;
}

/** A validator as the caller of setValidatorsParams knows it (keys are looked up here). */
export interface WeightedValidator {
  readonly address: Buffer;
  readonly bftWeight: bigint;
}

interface KeyLengths {
  validatorAddress?: Buffer;
  blsKey?: Buffer;
  proofOfPossession?: Buffer;
  generatorKey?: Buffer;
}

/** lisk-sdk `_validateLengths`: each given key must have its exact length, checked in this order. */
function checkLengths(keys: KeyLengths): void {
  if (keys.validatorAddress && keys.validatorAddress.length !== ADDRESS_LENGTH) {
    throw new FormatError(`Validator address must be ${ADDRESS_LENGTH} bytes long.`);
  }
  if (keys.blsKey && keys.blsKey.length !== BLS_PUBLIC_KEY_LENGTH) {
    throw new FormatError(`BLS public key must be ${BLS_PUBLIC_KEY_LENGTH} bytes long.`);
  }
  if (keys.proofOfPossession && keys.proofOfPossession.length !== BLS_POP_LENGTH) {
    throw new FormatError(`Proof of Possession must be ${BLS_POP_LENGTH} bytes long.`);
  }
  if (keys.generatorKey && keys.generatorKey.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw new FormatError(`Generator key must be ${ED25519_PUBLIC_KEY_LENGTH} bytes long.`);
  }
}

function alreadyRegisteredBlsKey(blsKey: Buffer): InvalidParamsError {
  return new InvalidParamsError(`The BLS key ${blsKey.toString('hex')} has already been registered in the chain.`);
}

/** Rejects an address that is already a validator, leaving the ALREADY_VALIDATOR event behind. */
function checkNotValidator(ctx: MethodContext, validatorAddress: Buffer, generatorKey: Buffer): void {
  if (validatorKeysStore.has(ctx.state, validatorAddress)) {
    logGeneratorKeyRegistration(ctx.events, validatorAddress, {
      generatorKey,
      result: KeyRegResult.ALREADY_VALIDATOR,
    });
    throw new InvalidParamsError('This address is already registered as validator.');
  }
}

/**
 * Rejects a BLS key that is already registered or whose proof of possession does not verify, in
 * that order, leaving the matching blsKeyRegistration event behind.
 */
function checkNewBlsKey(
  ctx: MethodContext,
  popChecks: ProofOfPossessionChecks,
  validatorAddress: Buffer,
  blsKey: Buffer,
  proofOfPossession: Buffer,
): void {
  if (blsKeysStore.has(ctx.state, blsKey)) {
    logBlsKeyRegistration(ctx.events, validatorAddress, {
      blsKey,
      proofOfPossession,
      result: KeyRegResult.DUPLICATE_BLS_KEY,
    });
    throw alreadyRegisteredBlsKey(blsKey);
  }
  if (!popChecks.check(blsKey, proofOfPossession)) {
    logBlsKeyRegistration(ctx.events, validatorAddress, {
      blsKey,
      proofOfPossession,
      result: KeyRegResult.INVALID_POP,
    });
    throw new InvalidParamsError('Invalid proof of possession for the given BLS key.');
  }
}

export class ValidatorsMethod {
  private blockTime = 0;
  private popChecks: ProofOfPossessionChecks = POP_CHECKS_ON_THIS_THREAD;

  /** Called by the module's init with genesisConfig.blockTime (seconds per slot). */
  init(config: { readonly blockTime: number }): void {
    this.blockTime = config.blockTime;
  }

  /** Where proofs of possession are checked (pop-checks.ts); on this thread until told otherwise. */
  useProofOfPossessionChecks(checks: ProofOfPossessionChecks): void {
    this.popChecks = checks;
  }

  /** The checks in use, for the endpoint that shares them. */
  proofOfPossessionChecks(): ProofOfPossessionChecks {
    return this.popChecks;
  }

  /**
   * LIP 0044 registerValidatorKeys: registers a new validator with its generator key and a BLS key
   * whose proof of possession verifies. Emits generatorKeyRegistration then blsKeyRegistration on
   * success; on failure emits one non-revertible event with the failure code and throws.
   */
  registerValidatorKeys(
    ctx: MethodContext,
    validatorAddress: Buffer,
    blsKey: Buffer,
    generatorKey: Buffer,
    proofOfPossession: Buffer,
  ): void {
    checkLengths({ validatorAddress, blsKey, proofOfPossession });
    const keys: ValidatorKeys = { generatorKey, blsKey };
    validate(validatorKeysSchema, keys);

    checkNotValidator(ctx, validatorAddress, generatorKey);
    checkNewBlsKey(ctx, this.popChecks, validatorAddress, blsKey, proofOfPossession);

    validatorKeysStore.set(ctx.state, validatorAddress, keys);
    blsKeysStore.set(ctx.state, blsKey, { address: validatorAddress });
    logGeneratorKeyRegistration(ctx.events, validatorAddress, { generatorKey, result: KeyRegResult.SUCCESS });
    logBlsKeyRegistration(ctx.events, validatorAddress, { blsKey, proofOfPossession, result: KeyRegResult.SUCCESS });
  }

  /**
   * LIP 0044 registerValidatorWithoutBLSKey (used by the legacy module's migration path): the BLS
   * key is the invalid all-zero placeholder until setValidatorBLSKey replaces it. Not indexed in
   * blsKeys. Returns true (lisk-sdk's return value).
   */
  registerValidatorWithoutBLSKey(ctx: MethodContext, validatorAddress: Buffer, generatorKey: Buffer): boolean {
    checkLengths({ validatorAddress });
    const keys: ValidatorKeys = { generatorKey, blsKey: INVALID_BLS_KEY };
    validate(validatorKeysSchema, keys);

    checkNotValidator(ctx, validatorAddress, generatorKey);

    validatorKeysStore.set(ctx.state, validatorAddress, keys);
    logGeneratorKeyRegistration(ctx.events, validatorAddress, { generatorKey, result: KeyRegResult.SUCCESS });
    return true;
  }

  /** LIP 0044 getAddressFromBLSKey: the owner of a registered BLS key, or NotFoundError. */
  getAddressFromBLSKey(ctx: ReadContext, blsKey: Buffer): BLSKeyOwner {
    checkLengths({ blsKey });
    const owner = blsKeysStore.get(ctx.state, blsKey);
    if (owner === undefined) {
      throw new NotFoundError(`The BLS key ${blsKey.toString('hex')} has not been registered in the chain.`);
    }
    return owner;
  }

  /** LIP 0044 getValidatorKeys: a validator's generator and BLS keys, or NotFoundError. */
  getValidatorKeys(ctx: ReadContext, address: Buffer): ValidatorKeys {
    checkLengths({ validatorAddress: address });
    const keys = validatorKeysStore.get(ctx.state, address);
    if (keys === undefined) {
      throw new NotFoundError('No validator account found for the input address.');
    }
    return keys;
  }

  /**
   * LIP 0044 setValidatorBLSKey: gives an existing validator (registered without one) a BLS key.
   * Emits blsKeyRegistration with the outcome; throws on failure. Returns true on success.
   */
  setValidatorBLSKey(ctx: MethodContext, validatorAddress: Buffer, blsKey: Buffer, proofOfPossession: Buffer): boolean {
    checkLengths({ validatorAddress, blsKey, proofOfPossession });

    const keys = validatorKeysStore.get(ctx.state, validatorAddress);
    if (keys === undefined) {
      logBlsKeyRegistration(ctx.events, validatorAddress, {
        blsKey,
        proofOfPossession,
        result: KeyRegResult.NO_VALIDATOR,
      });
      throw new NotFoundError('This address is not registered as validator. Only validators can register a BLS key.');
    }
    checkNewBlsKey(ctx, this.popChecks, validatorAddress, blsKey, proofOfPossession);

    // The previous key (normally the invalid placeholder) stays in blsKeys if it was indexed, as in lisk-sdk.
    validatorKeysStore.set(ctx.state, validatorAddress, { generatorKey: keys.generatorKey, blsKey });
    blsKeysStore.set(ctx.state, blsKey, { address: validatorAddress });
    logBlsKeyRegistration(ctx.events, validatorAddress, { blsKey, proofOfPossession, result: KeyRegResult.SUCCESS });
    return true;
  }

  /**
   * LIP 0044 setValidatorGeneratorKey: replaces an existing validator's generator key. Emits
   * generatorKeyRegistration with the outcome; throws when the address is no validator.
   */
  setValidatorGeneratorKey(ctx: MethodContext, validatorAddress: Buffer, generatorKey: Buffer): boolean {
    checkLengths({ validatorAddress, generatorKey });

    const keys = validatorKeysStore.get(ctx.state, validatorAddress);
    if (keys === undefined) {
      logGeneratorKeyRegistration(ctx.events, validatorAddress, {
        generatorKey,
        result: KeyRegResult.NO_VALIDATOR,
      });
      throw new NotFoundError('This address is not registered as validator. Only validators can register a generator key.');
    }

    validatorKeysStore.set(ctx.state, validatorAddress, { generatorKey, blsKey: keys.blsKey });
    logGeneratorKeyRegistration(ctx.events, validatorAddress, { generatorKey, result: KeyRegResult.SUCCESS });
    return true;
  }

  /** LIP 0044 isKeyRegistered: whether a BLS key is already taken on this chain. */
  isKeyRegistered(ctx: ReadContext, blsKey: Buffer): boolean {
    return blsKeysStore.has(ctx.state, blsKey);
  }

  /**
   * LIP 0044 getGeneratorsBetweenTimestamps: how many slots strictly between the two timestamps'
   * slots each validator of the current set was assigned (PoS counts them as missed blocks). Slots
   * are epoch-based (docs/protocol/bft.md): slot(t) = ⌊t / blockTime⌋, generator = set[slot mod n].
   *
   * As in lisk-sdk the result is keyed by the address as a latin1 ('binary') string, in the
   * order addresses first get slots; `Buffer.from(key, 'latin1')` gives the address back.
   */
  getGeneratorsBetweenTimestamps(ctx: ReadContext, startTimestamp: number, endTimestamp: number): Record<string, number> {
    if (endTimestamp < startTimestamp) {
      throw new InvalidParamsError('End timestamp must be greater than or equal to start timestamp.');
    }
    const firstSlot = Math.floor(startTimestamp / this.blockTime) + 1;
    const lastSlot = Math.floor(endTimestamp / this.blockTime) - 1;
    if (firstSlot > lastSlot) return {};

    const { validators } = validatorsParamsStore.getOrThrow(ctx.state, EMPTY_KEY);
    const count = validators.length;
    const result: Record<string, number> = {};
    // An empty set assigns nothing (lisk-sdk reaches the same answer through NaN arithmetic).
    if (count === 0) return result;

    const addresses = validators.map((validator) => validator.address.toString('latin1'));
    let slotsLeft = lastSlot - firstSlot + 1;
    // Whole passes over the set give everyone the same count; only the remainder needs a walk.
    const fullPasses = Math.floor(slotsLeft / count);
    if (fullPasses > 0) {
      slotsLeft -= fullPasses * count;
      for (const address of addresses) result[address] = fullPasses;
    }
    for (let slot = firstSlot; slot < firstSlot + slotsLeft; slot += 1) {
      const address = addresses[slot % count] as string;
      result[address] = (result[address] ?? 0) + 1;
    }
    return result;
  }

  /** LIP 0044 getValidatorsParams: the stored validator set and thresholds (NotFoundError before genesis). */
  getValidatorsParams(ctx: ReadContext): ValidatorsParams {
    return validatorsParamsStore.getOrThrow(ctx.state, EMPTY_KEY);
  }

  /**
   * LIP 0044 setValidatorsParams: completes each validator with its registered keys (every one must
   * be registered), stores the set, and hands it to BFT through `validatorSetter` — the genesis
   * or after-transactions context, whose `setNextValidators` fixes the set for the next height.
   */
  setValidatorsParams(
    ctx: MethodContext,
    validatorSetter: NextValidatorsSetter,
    preCommitThreshold: bigint,
    certificateThreshold: bigint,
    validators: readonly WeightedValidator[],
  ): void {
    const completed: ParamsValidator[] = validators.map((validator) => {
      const keys = validatorKeysStore.getOrThrow(ctx.state, validator.address);
      return {
        address: validator.address,
        bftWeight: validator.bftWeight,
        generatorKey: keys.generatorKey,
        blsKey: keys.blsKey,
      };
    });
    validatorsParamsStore.set(ctx.state, EMPTY_KEY, {
      preCommitThreshold,
      certificateThreshold,
      validators: completed,
    });
    validatorSetter.setNextValidators(preCommitThreshold, certificateThreshold, completed satisfies NextValidator[]);
  }
}
