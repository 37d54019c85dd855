/**
 * The pos module's configuration (lisk-sdk 6.1 pos/module.ts `init`, pos/schemas.ts `configSchema`,
 * pos/utils.ts `getModuleConfig`): lisk-sdk's defaults overlaid with the `modules.pos` section of
 * a Lisk config.json, validated with the same schema (whose two block-time dependent windows get
 * their bounds from the chain's block time), amounts turned into bigints.
 */
import { validate } from '../../codec/index.js';
import type { GenesisConfig } from '../../config/genesis-config.js';
import { ValidationError } from '../../errors.js';
import { DEFAULT_POS_CONFIG, MAX_NUM_VALIDATORS } from './constants.js';

export interface PosConfig {
  readonly factorSelfStakes: number;
  readonly maxLengthName: number;
  readonly maxNumberSentStakes: number;
  readonly maxNumberPendingUnlocks: number;
  readonly failSafeMissedBlocks: number;
  readonly failSafeInactiveWindow: number;
  readonly punishmentWindowStaking: number;
  readonly punishmentWindowSelfStaking: number;
  readonly minWeightStandby: bigint;
  readonly numberActiveValidators: number;
  readonly numberStandbyValidators: number;
  readonly posTokenID: Buffer;
  readonly validatorRegistrationFee: bigint;
  readonly maxBFTWeightCap: number;
  readonly commissionIncreasePeriod: number;
  readonly maxCommissionIncreaseRate: number;
  readonly useInvalidBLSKey: boolean;
  readonly baseStakeAmount: bigint;
  readonly lockingPeriodStaking: number;
  readonly lockingPeriodSelfStaking: number;
  readonly reportMisbehaviorReward: bigint;
  readonly reportMisbehaviorLimitBanned: number;
  readonly weightScaleFactor: bigint;
  /** numberActiveValidators + numberStandbyValidators: blocks per round. */
  readonly roundLength: number;
}

/** The locking and punishment windows that decide when unstaked tokens may be unlocked. */
export interface PunishmentLockingPeriods {
  readonly punishmentWindowStaking: number;
  readonly punishmentWindowSelfStaking: number;
  readonly lockingPeriodStaking: number;
  readonly lockingPeriodSelfStaking: number;
}

const SECONDS_PER_DAY = 24 * 60 * 60;

const uint32 = (bounds: { minimum?: number; maximum?: number } = {}): Record<string, unknown> => ({
  type: 'integer',
  format: 'uint32',
  ...bounds,
});
const uint64String = (minimum?: number): Record<string, unknown> =>
  minimum === undefined ? { type: 'string', format: 'uint64' } : { type: 'string', format: 'uint64', minimum };

/**
 * lisk-sdk's config schema with the bounds it computes in `_getConfigSchema` for this block time:
 * failSafeInactiveWindow and punishmentWindowSelfStaking must span 5 days to 1 year of blocks.
 * It is also what `getConstants` declares as its response schema (lisk-sdk shares the objects).
 */
export function posConfigSchema(blockTime: number): {
  $id: string;
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
} {
  const blocksPerDay = SECONDS_PER_DAY / blockTime;
  const window = { minimum: Math.floor(5 * blocksPerDay), maximum: Math.floor(365 * blocksPerDay) };
  return {
    $id: '/pos/config',
    type: 'object',
    properties: {
      factorSelfStakes: uint32({ minimum: 1 }),
      maxLengthName: uint32({ minimum: 10, maximum: 30 }),
      maxNumberSentStakes: uint32({ minimum: 1, maximum: 20 }),
      maxNumberPendingUnlocks: uint32({ minimum: 1, maximum: 40 }),
      failSafeMissedBlocks: uint32({ minimum: 2 }),
      failSafeInactiveWindow: uint32(window),
      punishmentWindowSelfStaking: uint32(window),
      minWeightStandby: uint64String(1),
      numberActiveValidators: uint32({ minimum: 1, maximum: MAX_NUM_VALIDATORS }),
      numberStandbyValidators: uint32({ maximum: 2 }),
      posTokenID: { type: 'string', format: 'hex' },
      validatorRegistrationFee: uint64String(),
      maxBFTWeightCap: uint32({ minimum: 300, maximum: 10_000 }),
      commissionIncreasePeriod: uint32(),
      maxCommissionIncreaseRate: uint32({ minimum: 100, maximum: 10_000 }),
      useInvalidBLSKey: { type: 'boolean' },
      baseStakeAmount: uint64String(1),
      lockingPeriodStaking: uint32(),
      lockingPeriodSelfStaking: uint32(),
      reportMisbehaviorReward: uint64String(),
      reportMisbehaviorLimitBanned: uint32({ minimum: 1 }),
    },
    required: [
      'factorSelfStakes',
      'maxLengthName',
      'maxNumberSentStakes',
      'maxNumberPendingUnlocks',
      'failSafeMissedBlocks',
      'failSafeInactiveWindow',
      'punishmentWindowSelfStaking',
      'minWeightStandby',
      'numberActiveValidators',
      'numberStandbyValidators',
      'posTokenID',
      'validatorRegistrationFee',
      'maxBFTWeightCap',
      'useInvalidBLSKey',
      'baseStakeAmount',
      'lockingPeriodStaking',
      'lockingPeriodSelfStaking',
      'reportMisbehaviorReward',
      'reportMisbehaviorLimitBanned',
    ],
  };
}

/**
 * Keys lisk-sdk's schema leaves out but whose values it uses as numbers / bigints; checked here
 * so that a bad value fails at start-up with a clear message instead of mid-chain.
 */
const unlistedKeysSchema = {
  type: 'object',
  properties: {
    punishmentWindowStaking: uint32(),
    weightScaleFactor: uint64String(),
  },
};

type RawPosConfig = Omit<
  PosConfig,
  | 'roundLength'
  | 'posTokenID'
  | 'minWeightStandby'
  | 'validatorRegistrationFee'
  | 'baseStakeAmount'
  | 'reportMisbehaviorReward'
  | 'weightScaleFactor'
> & {
  posTokenID: string;
  minWeightStandby: string;
  validatorRegistrationFee: string;
  baseStakeAmount: string;
  reportMisbehaviorReward: string;
  weightScaleFactor: string;
};

/** Throws ValidationError, entries reading `.modules.pos.<key>: <reason>`, unless `merged` is a raw pos config. */
function checkRawPosConfig(merged: Record<string, unknown>, blockTime: number): asserts merged is RawPosConfig {
  try {
    validate(posConfigSchema(blockTime), merged);
    validate(unlistedKeysSchema, merged);
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new ValidationError(error.errors.map((problem) => `.modules.pos${problem}`));
    }
    throw error;
  }
}

/**
 * Parses `modules.pos` of a Lisk config (lisk-sdk PoSModule.init): defaults, then the section's
 * keys on top; posTokenID defaults to chainID ‖ 00000000. Throws ValidationError whose entries
 * read `.modules.pos.<key>: <reason>`.
 */
export function parsePosConfig(moduleConfig: Record<string, unknown>, genesisConfig: GenesisConfig): PosConfig {
  const raw: Record<string, unknown> = {
    ...DEFAULT_POS_CONFIG,
    posTokenID: `${genesisConfig.chainID.toString('hex')}00000000`,
    ...moduleConfig,
  };
  checkRawPosConfig(raw, genesisConfig.blockTime);
  return {
    factorSelfStakes: raw.factorSelfStakes,
    maxLengthName: raw.maxLengthName,
    maxNumberSentStakes: raw.maxNumberSentStakes,
    maxNumberPendingUnlocks: raw.maxNumberPendingUnlocks,
    failSafeMissedBlocks: raw.failSafeMissedBlocks,
    failSafeInactiveWindow: raw.failSafeInactiveWindow,
    punishmentWindowStaking: raw.punishmentWindowStaking,
    punishmentWindowSelfStaking: raw.punishmentWindowSelfStaking,
    minWeightStandby: BigInt(raw.minWeightStandby),
    numberActiveValidators: raw.numberActiveValidators,
    numberStandbyValidators: raw.numberStandbyValidators,
    posTokenID: Buffer.from(raw.posTokenID, 'hex'),
    validatorRegistrationFee: BigInt(raw.validatorRegistrationFee),
    maxBFTWeightCap: raw.maxBFTWeightCap,
    commissionIncreasePeriod: raw.commissionIncreasePeriod,
    maxCommissionIncreaseRate: raw.maxCommissionIncreaseRate,
    useInvalidBLSKey: raw.useInvalidBLSKey,
    baseStakeAmount: BigInt(raw.baseStakeAmount),
    lockingPeriodStaking: raw.lockingPeriodStaking,
    lockingPeriodSelfStaking: raw.lockingPeriodSelfStaking,
    reportMisbehaviorReward: BigInt(raw.reportMisbehaviorReward),
    reportMisbehaviorLimitBanned: raw.reportMisbehaviorLimitBanned,
    weightScaleFactor: BigInt(raw.weightScaleFactor),
    roundLength: raw.numberActiveValidators + raw.numberStandbyValidators,
  };
}

/** The four windows the unlock rules use, picked out of a parsed config. */
export function punishmentLockingPeriods(config: PosConfig): PunishmentLockingPeriods {
  return {
    punishmentWindowStaking: config.punishmentWindowStaking,
    punishmentWindowSelfStaking: config.punishmentWindowSelfStaking,
    lockingPeriodStaking: config.lockingPeriodStaking,
    lockingPeriodSelfStaking: config.lockingPeriodSelfStaking,
  };
}
