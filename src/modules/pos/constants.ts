/**
 * Constants of the PoS module (LIP 0057 "Constants"; lisk-sdk 6.1 pos/constants.ts). The
 * configurable ones are only defaults: the values in force come from config.ts.
 */
export const POS_MODULE_NAME = 'pos';

/** Store key of the singleton substores (genesis data, previous timestamp). */
export const EMPTY_KEY = Buffer.alloc(0);

export const ADDRESS_LENGTH = 20;
export const CHAIN_ID_LENGTH = 4;
export const LOCAL_ID_LENGTH = 4;
export const TOKEN_ID_LENGTH = CHAIN_ID_LENGTH + LOCAL_ID_LENGTH;
export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const BLS_PUBLIC_KEY_LENGTH = 48;
export const BLS_POP_LENGTH = 96;
/** Longest byte string a Q96 sharing coefficient may take in the stores. */
export const MAX_NUMBER_BYTES_Q96 = 24;

/** Length limit of a validator name in the command and genesis schemas (fixed, not the config's). */
export const MAX_LENGTH_NAME = 20;
/** Genesis stakers may hold at most this many stakes, whatever the config says (lisk-sdk quirk). */
export const MAX_NUMBER_SENT_STAKES = 10;
/** Commission of a newly registered validator, in hundredths of a percent (100%). */
export const DEFAULT_COMMISSION = 10_000;
export const MAX_COMMISSION = 10_000;
/** Denominator of the BFT weight cap (maxBFTWeightCap is in hundredths of a percent). */
export const MAX_CAP = 10_000;
/** Upper bound of numberActiveValidators (lisk-sdk MAX_NUM_VALIDATORS). */
export const MAX_NUM_VALIDATORS = 199;
/** A round's validator set is computed from the weight snapshot taken two rounds earlier. */
export const VALIDATOR_LIST_ROUND_OFFSET = 2;

/** Result codes of the validatorStaked event (lisk-sdk PoSEventResult). */
export enum StakeEventResult {
  SUCCESSFUL = 0,
  FAILED_NON_REGISTERED_VALIDATOR = 1,
  FAILED_INVALID_UNSTAKE_PARAMETERS = 2,
  FAILED_TOO_MANY_PENDING_UNLOCKS = 3,
  FAILED_TOO_MANY_SENT_STAKES = 4,
}

/** lisk-sdk 6.1 `defaultConfig` of the pos module, in its key order (amounts as decimal strings). */
export const DEFAULT_POS_CONFIG = {
  factorSelfStakes: 10,
  maxLengthName: 20,
  maxNumberSentStakes: 10,
  maxNumberPendingUnlocks: 20,
  failSafeMissedBlocks: 50,
  failSafeInactiveWindow: 120_960,
  punishmentWindowStaking: 241_920,
  punishmentWindowSelfStaking: 725_760,
  minWeightStandby: '100000000000',
  numberActiveValidators: 101,
  numberStandbyValidators: 2,
  validatorRegistrationFee: '1000000000',
  maxBFTWeightCap: 500,
  commissionIncreasePeriod: 241_920,
  maxCommissionIncreaseRate: 500,
  useInvalidBLSKey: false,
  baseStakeAmount: '1000000000',
  lockingPeriodStaking: 25_920,
  lockingPeriodSelfStaking: 241_920,
  reportMisbehaviorReward: '100000000',
  reportMisbehaviorLimitBanned: 5,
  weightScaleFactor: '100000000000',
} as const;
