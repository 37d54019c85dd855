/**
 * Codec schemas of the pos commands and genesis asset, and the JSON schemas of its endpoints
 * (lisk-sdk 6.1 pos/schemas.ts), exactly as `system_getMetadata` reports them.
 */
import { objectArrayField, objectField, objectOf, objectSchema, type Schema } from '../../codec/index.js';
import {
  BLS_POP_LENGTH,
  BLS_PUBLIC_KEY_LENGTH,
  ED25519_PUBLIC_KEY_LENGTH,
  MAX_COMMISSION,
  MAX_LENGTH_NAME,
  MAX_NUMBER_BYTES_Q96,
  TOKEN_ID_LENGTH,
} from './constants.js';
import { unlockingObjectSchema } from './stores.js';

// The genesis asset lists the members of a sharing coefficient in another order than the stores
// do; system_getMetadata shows both as lisk-sdk declares them.
const genesisSharingCoefficientsProperty = (fieldNumber: number) =>
  objectArrayField(fieldNumber, {
    tokenID: { dataType: 'bytes', minLength: TOKEN_ID_LENGTH, maxLength: TOKEN_ID_LENGTH, fieldNumber: 1 },
    coefficient: { dataType: 'bytes', maxLength: MAX_NUMBER_BYTES_Q96, fieldNumber: 2 },
  });

// ---------------------------------------------------------------- commands

export const registerValidatorParamsSchema: Schema = objectSchema('/pos/command/registerValidatorParams', {
  name: { dataType: 'string', fieldNumber: 1, minLength: 1, maxLength: MAX_LENGTH_NAME },
  blsKey: { dataType: 'bytes', minLength: BLS_PUBLIC_KEY_LENGTH, maxLength: BLS_PUBLIC_KEY_LENGTH, fieldNumber: 2 },
  proofOfPossession: { dataType: 'bytes', minLength: BLS_POP_LENGTH, maxLength: BLS_POP_LENGTH, fieldNumber: 3 },
  generatorKey: {
    dataType: 'bytes',
    minLength: ED25519_PUBLIC_KEY_LENGTH,
    maxLength: ED25519_PUBLIC_KEY_LENGTH,
    fieldNumber: 4,
  },
});

export const reportMisbehaviorParamsSchema: Schema = objectSchema('/pos/command/reportMisbehaviorParams', {
  header1: { dataType: 'bytes', fieldNumber: 1 },
  header2: { dataType: 'bytes', fieldNumber: 2 },
});

/** The params schema of commands without params (unlock, claimRewards): zero bytes. */
export const emptyParamsSchema: Schema = {
  $id: '/lisk/empty',
  type: 'object',
  properties: {},
};

export const updateGeneratorKeyParamsSchema: Schema = objectSchema('/pos/command/updateGeneratorKeyParams', {
  generatorKey: { dataType: 'bytes', fieldNumber: 1, minLength: 32, maxLength: 32 },
});

export const stakeParamsSchema: Schema = objectSchema('/pos/command/stakeValidatorParams', {
  stakes: objectArrayField(
    1,
    {
      validatorAddress: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' },
      amount: { dataType: 'sint64', fieldNumber: 2 },
    },
    { minItems: 1, maxItems: 20 },
  ),
});

export const changeCommissionParamsSchema: Schema = objectSchema('/pos/command/changeCommissionCommandParams', {
  newCommission: { dataType: 'uint32', fieldNumber: 1, maximum: MAX_COMMISSION },
});

// ---------------------------------------------------------------- genesis asset

export const genesisAssetSchema: Schema = objectSchema('/pos/module/genesis', {
  validators: objectArrayField(1, {
    address: { dataType: 'bytes', format: 'lisk32', fieldNumber: 1 },
    name: { dataType: 'string', fieldNumber: 2, minLength: 1, maxLength: MAX_LENGTH_NAME },
    blsKey: { dataType: 'bytes', fieldNumber: 3, minLength: BLS_PUBLIC_KEY_LENGTH, maxLength: BLS_PUBLIC_KEY_LENGTH },
    proofOfPossession: { dataType: 'bytes', fieldNumber: 4, minLength: BLS_POP_LENGTH, maxLength: BLS_POP_LENGTH },
    generatorKey: {
      dataType: 'bytes',
      fieldNumber: 5,
      minLength: ED25519_PUBLIC_KEY_LENGTH,
      maxLength: ED25519_PUBLIC_KEY_LENGTH,
    },
    lastGeneratedHeight: { dataType: 'uint32', fieldNumber: 6 },
    isBanned: { dataType: 'boolean', fieldNumber: 7 },
    reportMisbehaviorHeights: { type: 'array', fieldNumber: 8, items: { dataType: 'uint32' } },
    consecutiveMissedBlocks: { dataType: 'uint32', fieldNumber: 9 },
    commission: { dataType: 'uint32', fieldNumber: 10, maximum: MAX_COMMISSION },
    lastCommissionIncreaseHeight: { dataType: 'uint32', fieldNumber: 11 },
    sharingCoefficients: genesisSharingCoefficientsProperty(12),
  }),
  stakers: objectArrayField(2, {
    address: { dataType: 'bytes', format: 'lisk32', fieldNumber: 1 },
    stakes: objectArrayField(2, {
      validatorAddress: { dataType: 'bytes', format: 'lisk32', fieldNumber: 1 },
      amount: { dataType: 'uint64', fieldNumber: 2 },
      sharingCoefficients: genesisSharingCoefficientsProperty(3),
    }),
    pendingUnlocks: { type: 'array', fieldNumber: 3, items: unlockingObjectSchema },
  }),
  genesisData: objectField(3, {
    initRounds: { dataType: 'uint32', fieldNumber: 1 },
    initValidators: { type: 'array', fieldNumber: 2, items: { dataType: 'bytes', format: 'lisk32' } },
  }),
});

// ---------------------------------------------------------------- endpoints (JSON schemas)

const lisk32Address = { type: 'string', format: 'lisk32' } as const;
const uint64String = { type: 'string', format: 'uint64' } as const;
const uint32Integer = { type: 'integer', format: 'uint32' } as const;

// lisk-sdk's shared response shape; it predates the store field names, which the answers use.
const validatorJSONSchema = objectOf({
  address: lisk32Address,
  name: { type: 'string' },
  totalStakeReceived: uint64String,
  selfStake: uint64String,
  lastGeneratedHeight: uint32Integer,
  isBanned: { type: 'boolean' },
  pomHeights: { type: 'array', items: uint32Integer },
  punishmentPeriods: {
    type: 'array',
    items: objectOf({ start: uint32Integer, end: uint32Integer }),
  },
  consecutiveMissedBlocks: uint32Integer,
});

const addressRequest = (id: string) => objectSchema(id, { address: lisk32Address });
const validatorsResponse = (id: string) => objectSchema(id, { validators: { type: 'array', items: validatorJSONSchema } });
const rewardResponse = (id: string) => objectSchema(id, { reward: uint64String });

export const getValidatorRequestSchema = addressRequest('modules/pos/endpoint/getValidatorRequest');

export const getValidatorResponseSchema = {
  $id: 'modules/pos/endpoint/getValidatorResponse',
  ...validatorJSONSchema,
};

/** lisk-sdk reuses the getValidator request schema object for getStaker. */
export const getStakerRequestSchema = getValidatorRequestSchema;

export const getStakerResponseSchema = objectSchema('modules/pos/endpoint/getStakerResponse', {
  stakes: objectArrayField(1, { validatorAddress: lisk32Address, amount: uint64String }),
  pendingUnlocks: objectArrayField(2, { validatorAddress: lisk32Address, amount: uint64String, unstakeHeight: uint32Integer }),
});

export const getAllValidatorsResponseSchema = validatorsResponse('modules/pos/endpoint/getAllValidatorsResponse');

export const getPoSTokenIDResponseSchema = objectSchema('modules/pos/endpoint/getPoSTokenIDResponse', {
  tokenID: { type: 'string', format: 'hex' },
});

export const getValidatorsByStakeRequestSchema = {
  $id: 'modules/pos/endpoint/getValidatorsByStakeRequest',
  type: 'object',
  properties: { limit: { type: 'integer', format: 'int32' } },
};

export const getValidatorsByStakeResponseSchema = validatorsResponse('modules/pos/endpoint/getValidatorsByStakeResponse');

export const getLockedRewardRequestSchema = objectSchema('modules/pos/endpoint/getLockedRewardRequest', {
  address: lisk32Address,
  tokenID: { type: 'string', format: 'hex' },
});

export const getLockedRewardResponseSchema = rewardResponse('modules/pos/endpoint/getLockedRewardResponse');

export const getClaimableRewardsRequestSchema = addressRequest('modules/pos/endpoint/getClaimableRewardsRequest');

export const getClaimableRewardsResponseSchema = {
  $id: 'modules/pos/endpoint/getClaimableRewardsResponse',
  type: 'object',
  properties: {
    rewards: {
      items: objectOf({ tokenID: { type: 'string', format: 'hex' }, reward: uint64String }),
    },
  },
};

export const getLockedStakedAmountRequestSchema = addressRequest('modules/pos/endpoint/getLockedStakedAmountRequest');

export const getLockedStakedAmountResponseSchema = objectSchema('modules/pos/endpoint/getLockedStakedAmountResponse', {
  amount: uint64String,
});

export const getPendingUnlocksRequestSchema = addressRequest('modules/pos/endpoint/getPendingUnlocksRequest');

export const getPendingUnlocksResponseSchema = objectSchema('modules/pos/endpoint/getPendingUnlocksResponse', {
  pendingUnlocks: {
    type: 'array',
    items: objectOf({
      validatorAddress: lisk32Address,
      amount: uint64String,
      unstakeHeight: uint32Integer,
      expectedUnlockableHeight: uint32Integer,
      unlockable: { type: 'boolean' },
    }),
  },
});

// The declared field is `registrationFee`; the endpoint answers `{fee}` (lisk-sdk mismatch, kept).
export const getRegistrationFeeResponseSchema = objectSchema('modules/pos/endpoint/getRegistrationFeeResponse', {
  registrationFee: { type: 'string' },
});

export const getExpectedSharedRewardsRequestSchema = objectSchema('modules/pos/endpoint/getExpectedSharedRewardsRequest', {
  validatorAddress: lisk32Address,
  validatorReward: uint64String,
  stake: uint64String,
});

export const getExpectedSharedRewardsResponseSchema = rewardResponse('modules/pos/endpoint/getExpectedSharedRewardsResponse');

/** `getConstants` declares the config schema (with this chain's block-time bounds) plus defaultCommission. */
export function getConstantsResponseSchema(configSchema: {
  properties: Record<string, unknown>;
  required: readonly string[];
}): Record<string, unknown> {
  return {
    $id: 'modules/pos/endpoint/getConstantsResponseSchema',
    type: 'object',
    properties: { ...configSchema.properties, defaultCommission: uint32Integer },
    required: [...configSchema.required, 'defaultCommission'],
  };
}
