/**
 * The pos module's substores (LIP 0057 "State Store"; lisk-sdk 6.1 pos/stores/*), in lisk-sdk's
 * registration order, which fixes their key prefixes: 0 staker (7160f868 0000), 1 validator
 * (8000), 2 name (4000), 3 snapshot (c000), 4 genesis (2000), 5 previousTimestamp (a000),
 * 6 eligibleValidators (6000).
 */
import { objectArrayField, objectOf, objectSchema, type Schema } from '../../codec/index.js';
import type { StateReader } from '../../state/state-view.js';
import { ModuleStore } from '../base/index.js';
import { MAX_NUMBER_BYTES_Q96, POS_MODULE_NAME, TOKEN_ID_LENGTH } from './constants.js';

/** A token ID with its Q96 reward-sharing coefficient (big-endian bytes, empty for zero). */
export interface SharingCoefficient {
  tokenID: Buffer;
  coefficient: Buffer;
}

/** One stake a staker holds on a validator. */
export interface StakeObject {
  validatorAddress: Buffer;
  amount: bigint;
  /** The validator's coefficients when the staker's rewards were last settled. */
  sharingCoefficients: SharingCoefficient[];
}

/** Tokens unstaked at `unstakeHeight`, waiting to be unlocked. */
export interface UnlockingObject {
  validatorAddress: Buffer;
  amount: bigint;
  unstakeHeight: number;
}

export interface StakerData {
  stakes: StakeObject[];
  pendingUnlocks: UnlockingObject[];
}

export interface ValidatorAccount {
  name: string;
  totalStake: bigint;
  selfStake: bigint;
  lastGeneratedHeight: number;
  isBanned: boolean;
  reportMisbehaviorHeights: number[];
  consecutiveMissedBlocks: number;
  commission: number;
  lastCommissionIncreaseHeight: number;
  sharingCoefficients: SharingCoefficient[];
}

export interface NameData {
  validatorAddress: Buffer;
}

export interface ValidatorWeight {
  address: Buffer;
  weight: bigint;
}

export interface SnapshotData {
  validatorWeightSnapshot: ValidatorWeight[];
}

export interface GenesisData {
  height: number;
  initRounds: number;
  initValidators: Buffer[];
}

export interface PreviousTimestampData {
  timestamp: number;
}

export interface EligibleValidator {
  lastReportMisbehaviorHeight: number;
}

/** A (tokenID, Q96 coefficient) pair, as the validator and staker stores hold it. */
export const sharingCoefficientItemSchema = objectOf({
  tokenID: { dataType: 'bytes', fieldNumber: 1, minLength: TOKEN_ID_LENGTH, maxLength: TOKEN_ID_LENGTH },
  coefficient: { dataType: 'bytes', fieldNumber: 2, maxLength: MAX_NUMBER_BYTES_Q96 },
});

const sharingCoefficientsProperty = (fieldNumber: number) => ({ type: 'array', fieldNumber, items: sharingCoefficientItemSchema }) as const;

/** A pending unlock, as the staker store and the genesis asset hold it. */
export const unlockingObjectSchema = objectOf({
  validatorAddress: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' },
  amount: { dataType: 'uint64', fieldNumber: 2 },
  unstakeHeight: { dataType: 'uint32', fieldNumber: 3 },
});

export const stakerStoreSchema: Schema = objectSchema('/pos/staker', {
  stakes: objectArrayField(1, {
    validatorAddress: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' },
    amount: { dataType: 'uint64', fieldNumber: 2 },
    sharingCoefficients: sharingCoefficientsProperty(3),
  }),
  pendingUnlocks: { type: 'array', fieldNumber: 2, items: unlockingObjectSchema },
});

export const validatorStoreSchema: Schema = objectSchema('/pos/validator', {
  name: { dataType: 'string', fieldNumber: 1 },
  totalStake: { dataType: 'uint64', fieldNumber: 2 },
  selfStake: { dataType: 'uint64', fieldNumber: 3 },
  lastGeneratedHeight: { dataType: 'uint32', fieldNumber: 4 },
  isBanned: { dataType: 'boolean', fieldNumber: 5 },
  reportMisbehaviorHeights: { type: 'array', fieldNumber: 6, items: { dataType: 'uint32' } },
  consecutiveMissedBlocks: { dataType: 'uint32', fieldNumber: 7 },
  commission: { dataType: 'uint32', fieldNumber: 8 },
  lastCommissionIncreaseHeight: { dataType: 'uint32', fieldNumber: 9 },
  sharingCoefficients: sharingCoefficientsProperty(10),
});

export const nameStoreSchema: Schema = objectSchema('/pos/name', {
  validatorAddress: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' },
});

export const snapshotStoreSchema: Schema = objectSchema('/pos/store/snapshot', {
  validatorWeightSnapshot: objectArrayField(1, {
    address: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' },
    weight: { dataType: 'uint64', fieldNumber: 2 },
  }),
});

export const genesisDataStoreSchema: Schema = objectSchema('/pos/store/genesis', {
  height: { dataType: 'uint32', fieldNumber: 1 },
  initRounds: { dataType: 'uint32', fieldNumber: 2 },
  initValidators: { type: 'array', fieldNumber: 3, items: { dataType: 'bytes', format: 'lisk32' } },
});

export const previousTimestampStoreSchema: Schema = objectSchema('/pos/store/previousTimestamp', {
  timestamp: { dataType: 'uint32', fieldNumber: 1 },
});

export const eligibleValidatorsStoreSchema: Schema = objectSchema('/pos/eligibleValidators', {
  lastReportMisbehaviorHeight: { dataType: 'uint32', fieldNumber: 1 },
});

/** Stakes and pending unlocks of each staker, by address. */
export const stakerStore = new ModuleStore<StakerData>(POS_MODULE_NAME, 'staker', 0, stakerStoreSchema);
/** Every registered validator, by address. */
export const validatorStore = new ModuleStore<ValidatorAccount>(POS_MODULE_NAME, 'validator', 1, validatorStoreSchema);
/** Validator names (UTF-8 bytes) to addresses: names are unique. */
export const nameStore = new ModuleStore<NameData>(POS_MODULE_NAME, 'name', 2, nameStoreSchema);
/** Weight snapshots by round (4-byte big-endian round number). */
export const snapshotStore = new ModuleStore<SnapshotData>(POS_MODULE_NAME, 'snapshot', 3, snapshotStoreSchema);
/** Genesis height, bootstrap rounds and init validators, under the empty key. */
export const genesisDataStore = new ModuleStore<GenesisData>(POS_MODULE_NAME, 'genesis', 4, genesisDataStoreSchema);
/** Timestamp of the previous block, under the empty key (missed-block accounting). */
export const previousTimestampStore = new ModuleStore<PreviousTimestampData>(
  POS_MODULE_NAME,
  'previousTimestamp',
  5,
  previousTimestampStoreSchema,
);
/** Validators with weight ≥ minWeightStandby, keyed by weight (uint64 BE) ‖ address. */
export const eligibleValidatorsStore = new ModuleStore<EligibleValidator>(
  POS_MODULE_NAME,
  'eligibleValidators',
  6,
  eligibleValidatorsStoreSchema,
);

/** In registration (= substore index) order, as metadata lists them. */
export const posStores = [
  stakerStore,
  validatorStore,
  nameStore,
  snapshotStore,
  genesisDataStore,
  previousTimestampStore,
  eligibleValidatorsStore,
] as const;

/** A staker's data, or empty stakes and unlocks when it has none (lisk-sdk getOrDefault). */
export function getStakerOrDefault(state: StateReader, address: Buffer): StakerData {
  return stakerStore.get(state, address) ?? { stakes: [], pendingUnlocks: [] };
}

/** Snapshot store key of a round: its number as 4 bytes big-endian (lisk-sdk intToBuffer). */
export function roundKey(round: number): Buffer {
  const key = Buffer.alloc(4);
  key.writeUInt32BE(round);
  return key;
}

const ELIGIBLE_KEY_LENGTH = 8 + 20;

/** eligibleValidators key: weight as uint64 big-endian, then the address, so keys sort by weight. */
export function eligibleValidatorKey(address: Buffer, weight: bigint): Buffer {
  const key = Buffer.alloc(8 + address.length);
  key.writeBigUInt64BE(weight);
  address.copy(key, 8);
  return key;
}

/** Splits an eligibleValidators key into address and weight. */
export function splitEligibleValidatorKey(key: Buffer): ValidatorWeight {
  return { address: key.subarray(8), weight: key.readBigUInt64BE(0) };
}

/**
 * Eligible validators by descending weight (ties by descending address), at most `limit` of
 * them when given (lisk-sdk EligibleValidatorsStore.getTop / getAll).
 */
export function eligibleValidatorsByWeight(state: StateReader, limit?: number): { key: Buffer; value: EligibleValidator }[] {
  return eligibleValidatorsStore.iterate(state, {
    gte: Buffer.alloc(ELIGIBLE_KEY_LENGTH, 0),
    lte: Buffer.alloc(ELIGIBLE_KEY_LENGTH, 0xff),
    reverse: true,
    ...(limit === undefined ? {} : { limit }),
  });
}
