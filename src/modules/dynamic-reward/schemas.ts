/** Endpoint request and response schemas of the dynamic reward module (lisk-sdk reward/schemas.ts, dynamic_reward/schemas.ts). */
import { objectSchema } from '../../codec/index.js';

export const heightRequestSchema = objectSchema('/reward/endpoint/height', {
  height: { type: 'integer', format: 'uint32' },
});

export const getDefaultRewardAtHeightResponseSchema = objectSchema('/reward/endpoint/getDefaultRewardAtHeightResponse', {
  reward: { type: 'string', format: 'uint64' },
});

export const getAnnualInflationResponseSchema = objectSchema('/reward/endpoint/getAnnualInflationResponse', {
  tokenID: { type: 'string', format: 'hex' },
  rate: { type: 'string', format: 'uint64', minLength: 16, maxLength: 16 },
});

export const getRewardTokenIDResponseSchema = objectSchema('/reward/endpoint/getRewardTokenID', {
  tokenID: { type: 'string', format: 'hex', minLength: 16, maxLength: 16 },
});

export const getExpectedValidatorRewardsRequestSchema = objectSchema('/dynamicReward/endpoint/getExpectedValidatorRewardsRequestSchema', {
  validatorAddress: { type: 'string', format: 'lisk32' },
});

export const getExpectedValidatorRewardsResponseSchema = objectSchema('/dynamicReward/endpoint/getExpectedValidatorRewardsResponseSchema', {
  blockReward: { type: 'string' },
  dailyReward: { type: 'string' },
  monthlyReward: { type: 'string' },
  yearlyReward: { type: 'string' },
});
