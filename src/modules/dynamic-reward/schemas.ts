/** Endpoint request and response schemas of the dynamic reward module (lisk-sdk reward/schemas.ts, dynamic_reward/schemas.ts). */

export const heightRequestSchema = {
  $id: '/reward/endpoint/height',
  type: 'object',
  required: ['height'],
  properties: {
    height: { type: 'integer', format: 'uint32' },
  },
} as const;

export const getDefaultRewardAtHeightResponseSchema = {
  $id: '/reward/endpoint/getDefaultRewardAtHeightResponse',
  type: 'object',
  required: ['reward'],
  properties: {
    reward: { type: 'string', format: 'uint64' },
  },
} as const;

export const getAnnualInflationResponseSchema = {
  $id: '/reward/endpoint/getAnnualInflationResponse',
  type: 'object',
  required: ['tokenID', 'rate'],
  properties: {
    tokenID: { type: 'string', format: 'hex' },
    rate: { type: 'string', format: 'uint64', minLength: 16, maxLength: 16 },
  },
} as const;

export const getRewardTokenIDResponseSchema = {
  $id: '/reward/endpoint/getRewardTokenID',
  type: 'object',
  required: ['tokenID'],
  properties: {
    tokenID: { type: 'string', format: 'hex', minLength: 16, maxLength: 16 },
  },
} as const;

export const getExpectedValidatorRewardsRequestSchema = {
  $id: '/dynamicReward/endpoint/getExpectedValidatorRewardsRequestSchema',
  type: 'object',
  required: ['validatorAddress'],
  properties: {
    validatorAddress: { type: 'string', format: 'lisk32' },
  },
} as const;

export const getExpectedValidatorRewardsResponseSchema = {
  $id: '/dynamicReward/endpoint/getExpectedValidatorRewardsResponseSchema',
  type: 'object',
  required: ['blockReward', 'dailyReward', 'monthlyReward', 'yearlyReward'],
  properties: {
    blockReward: { type: 'string' },
    dailyReward: { type: 'string' },
    monthlyReward: { type: 'string' },
    yearlyReward: { type: 'string' },
  },
} as const;
