/**
 * The pos genesis asset (LIP 0057 "Genesis Block Processing"; lisk-sdk 6.1 pos/module.ts
 * initGenesisState / finalizeGenesisState): validators, stakers and the bootstrap data. Init
 * checks and stores them (in lisk-sdk's order, so the same asset fails with the same error);
 * finalize registers the validators' keys, checks that stakes are locked in the token module,
 * and gives BFT the first validator set: the init validators sorted by address, weight 1 each,
 * thresholds ⌊2n/3⌋ + 1.
 */
import { codec, MAX_UINT64, validate } from '../../codec/index.js';
import { encodeLisk32 } from '../../crypto/index.js';
import type { GenesisContext } from '../base/index.js';
import type { PosConfig } from './config.js';
import { EMPTY_KEY, MAX_NUMBER_SENT_STAKES, POS_MODULE_NAME } from './constants.js';
import type { PosTokenMethod, PosValidatorsMethod } from './dependencies.js';
import { setBftValidators } from './bft-validators.js';
import { genesisAssetSchema } from './schemas.js';
import {
  genesisDataStore,
  nameStore,
  previousTimestampStore,
  stakerStore,
  validatorStore,
  type GenesisData,
  type SharingCoefficient,
  type StakerData,
  type UnlockingObject,
  type ValidatorAccount,
} from './stores.js';
import { equalUnlocking, sortUnlocking } from './unlocking.js';
import { isUsername } from './username.js';
import { GenesisStateError } from '../../errors.js';

/** A validator of the genesis asset: its address and keys, and the validator store's fields but the stakes. */
export interface GenesisValidator extends Omit<ValidatorAccount, 'totalStake' | 'selfStake'> {
  address: Buffer;
  blsKey: Buffer;
  proofOfPossession: Buffer;
  generatorKey: Buffer;
}

/** A staker of the genesis asset: its address and what the staker store keeps for it. */
export interface GenesisStaker extends StakerData {
  address: Buffer;
}

export interface PosGenesisAsset {
  validators: GenesisValidator[];
  stakers: GenesisStaker[];
  genesisData: Omit<GenesisData, 'height'>;
}

const hexKey = (bytes: Buffer): string => bytes.toString('hex');

function allUnique(items: readonly Buffer[]): boolean {
  return new Set(items.map(hexKey)).size === items.length;
}

function isAscending(items: readonly Buffer[]): boolean {
  const sorted = [...items].sort((a, b) => a.compare(b));
  return sorted.every((item, index) => item.equals(items[index] as Buffer));
}

function isSortedByTokenID(coefficients: readonly SharingCoefficient[]): boolean {
  return isAscending(coefficients.map((coefficient) => coefficient.tokenID));
}

/** Decodes and checks the asset; throws Error with lisk-sdk's message at the first problem. */
export function decodeAndCheckGenesisAsset(bytes: Buffer, height: number, config: PosConfig): PosGenesisAsset {
  const asset = codec.decode<PosGenesisAsset>(genesisAssetSchema, bytes);
  validate(genesisAssetSchema, asset);

  const validatorsByAddress = new Map<string, GenesisValidator>();
  for (const validator of asset.validators) {
    if (!isUsername(validator.name)) throw new GenesisStateError(`Invalid validator name ${validator.name}.`);
    if (validator.lastCommissionIncreaseHeight > height) {
      throw new GenesisStateError(
        `Invalid lastCommissionIncreaseHeight ${validator.lastCommissionIncreaseHeight} for ${encodeLisk32(validator.address)}.`,
      );
    }
    if (!isSortedByTokenID(validator.sharingCoefficients)) {
      throw new GenesisStateError('SharingCoefficients must be sorted by tokenID.');
    }
    validatorsByAddress.set(hexKey(validator.address), validator);
  }
  if (!allUnique(asset.validators.map((validator) => validator.address))) {
    throw new GenesisStateError('Validator address is not unique.');
  }
  if (new Set(asset.validators.map((validator) => validator.name)).size !== asset.validators.length) {
    throw new GenesisStateError('Validator name is not unique.');
  }

  for (const staker of asset.stakers) {
    checkGenesisStaker(staker, validatorsByAddress, config);
  }
  if (!allUnique(asset.stakers.map((staker) => staker.address))) {
    throw new GenesisStateError('Staker address is not unique.');
  }

  const { initValidators } = asset.genesisData;
  if (!allUnique(initValidators)) throw new GenesisStateError('Init validators address is not unique.');
  if (initValidators.some((address) => !validatorsByAddress.has(hexKey(address)))) {
    throw new GenesisStateError('Init validators includes non existing validator address.');
  }
  if (initValidators.length > config.numberActiveValidators) {
    throw new GenesisStateError(`Init validators is greater than number of active validators ${config.numberActiveValidators}.`);
  }
  return asset;
}

function checkGenesisStaker(staker: GenesisStaker, validatorsByAddress: ReadonlyMap<string, GenesisValidator>, config: PosConfig): void {
  // The constant, not config.maxNumberSentStakes: lisk-sdk checks genesis stakes against it.
  if (staker.stakes.length > MAX_NUMBER_SENT_STAKES) {
    throw new GenesisStateError(`Sent stake exceeds max stake ${MAX_NUMBER_SENT_STAKES}.`);
  }
  const stakedValidators = staker.stakes.map((stake) => stake.validatorAddress);
  if (!allUnique(stakedValidators)) throw new GenesisStateError('Sent stake validator address is not unique.');
  if (!isAscending(stakedValidators)) {
    throw new GenesisStateError('Sent stake validator address is not lexicographically ordered.');
  }
  for (const stake of staker.stakes) {
    const validator = validatorsByAddress.get(hexKey(stake.validatorAddress));
    if (validator === undefined) throw new GenesisStateError('Sent stake includes non existing validator address.');
    for (const coefficient of stake.sharingCoefficients) {
      const target = validator.sharingCoefficients.find((entry) => entry.tokenID.equals(coefficient.tokenID));
      // Raw byte comparison, as lisk-sdk does (Buffer.compare, not numeric).
      if (target === undefined || coefficient.coefficient.compare(target.coefficient) > 0) {
        throw new GenesisStateError(
          'Validator does not have corresponding sharing coefficient or the coefficient value is not consistent.',
        );
      }
    }
    if (!isSortedByTokenID(stake.sharingCoefficients)) {
      throw new GenesisStateError('stakeSharingCoefficients must be sorted by tokenID.');
    }
  }
  if (staker.pendingUnlocks.length > config.maxNumberPendingUnlocks) {
    throw new GenesisStateError(`PendingUnlocks exceeds max unlocking ${config.maxNumberPendingUnlocks}.`);
  }
  const sorted = [...staker.pendingUnlocks];
  sortUnlocking(sorted);
  if (!staker.pendingUnlocks.every((unlock, index) => equalUnlocking(unlock, sorted[index] as UnlockingObject))) {
    throw new GenesisStateError('PendingUnlocks are not lexicographically ordered.');
  }
  if (staker.pendingUnlocks.some((unlock) => !validatorsByAddress.has(hexKey(unlock.validatorAddress)))) {
    throw new GenesisStateError('Pending unlocks includes non existing validator address.');
  }
}

/** initGenesisState: checks the asset, then writes stakers, validators, names and bootstrap data. */
export function initPosGenesisState(context: GenesisContext, config: PosConfig): void {
  const bytes = context.assets.getAsset(POS_MODULE_NAME);
  if (bytes === undefined) return;
  const asset = decodeAndCheckGenesisAsset(bytes, context.header.height, config);

  const received = new Map<string, { selfStake: bigint; totalStake: bigint }>();
  for (const staker of asset.stakers) {
    for (const stake of staker.stakes) {
      const key = hexKey(stake.validatorAddress);
      const sums = received.get(key) ?? { selfStake: 0n, totalStake: 0n };
      sums.totalStake += stake.amount;
      if (sums.totalStake > MAX_UINT64) throw new GenesisStateError('Stakes received out of range.');
      if (stake.validatorAddress.equals(staker.address)) {
        sums.selfStake += stake.amount;
        if (sums.selfStake > MAX_UINT64) throw new GenesisStateError('Self stake out of range.');
      }
      received.set(key, sums);
    }
    stakerStore.set(context.state, staker.address, { stakes: staker.stakes, pendingUnlocks: staker.pendingUnlocks });
  }

  for (const validator of asset.validators) {
    const sums = received.get(hexKey(validator.address)) ?? { selfStake: 0n, totalStake: 0n };
    validatorStore.set(context.state, validator.address, {
      name: validator.name,
      totalStake: sums.totalStake,
      selfStake: sums.selfStake,
      lastGeneratedHeight: validator.lastGeneratedHeight,
      isBanned: validator.isBanned,
      reportMisbehaviorHeights: validator.reportMisbehaviorHeights,
      consecutiveMissedBlocks: validator.consecutiveMissedBlocks,
      commission: validator.commission,
      lastCommissionIncreaseHeight: validator.lastCommissionIncreaseHeight,
      sharingCoefficients: validator.sharingCoefficients,
    });
    nameStore.set(context.state, Buffer.from(validator.name, 'utf8'), { validatorAddress: validator.address });
  }

  previousTimestampStore.set(context.state, EMPTY_KEY, { timestamp: context.header.timestamp });
  genesisDataStore.set(context.state, EMPTY_KEY, {
    height: context.header.height,
    initRounds: asset.genesisData.initRounds,
    initValidators: asset.genesisData.initValidators,
  });
}

/** The mainchain of a chain ID's network: its first byte followed by three zero bytes. */
function mainchainIDOf(chainID: Buffer): Buffer {
  return Buffer.concat([chainID.subarray(0, 1), Buffer.alloc(3)]);
}

/**
 * finalizeGenesisState: registers every validator's keys with the validators module (without a
 * BLS key on a mainchain configured with useInvalidBLSKey), checks that each staker's stakes
 * and pending unlocks are exactly its tokens locked under `pos`, and sets the first validator set.
 */
export function finalizePosGenesisState(
  context: GenesisContext,
  config: PosConfig,
  deps: { readonly token: PosTokenMethod; readonly validators: PosValidatorsMethod },
): void {
  const bytes = context.assets.getAsset(POS_MODULE_NAME);
  if (bytes === undefined) return;
  const asset = codec.decode<PosGenesisAsset>(genesisAssetSchema, bytes);

  const withoutBlsKeys = config.useInvalidBLSKey && context.chainID.equals(mainchainIDOf(context.chainID));
  for (const validator of asset.validators) {
    if (withoutBlsKeys) {
      deps.validators.registerValidatorWithoutBLSKey(context, validator.address, validator.generatorKey);
    } else {
      deps.validators.registerValidatorKeys(
        context,
        validator.address,
        validator.blsKey,
        validator.generatorKey,
        validator.proofOfPossession,
      );
    }
  }

  // Each staker is decoded as it is checked (a migrated mainnet has hundreds of thousands).
  stakerStore.forEach(context.state, { gte: Buffer.alloc(20, 0), lte: Buffer.alloc(20, 0xff) }, (address, staker) => {
    let staked = 0n;
    for (const stake of staker.stakes) staked += stake.amount;
    for (const unlock of staker.pendingUnlocks) staked += unlock.amount;
    const locked = deps.token.getLockedAmount(context, address, config.posTokenID, POS_MODULE_NAME);
    if (locked !== staked) throw new GenesisStateError('Staked amount is not locked');
  });

  const initValidators = [...asset.genesisData.initValidators].sort((a, b) => a.compare(b));
  setBftValidators(
    deps.validators,
    context,
    initValidators.map((address) => ({ address, bftWeight: 1n })),
  );
}
