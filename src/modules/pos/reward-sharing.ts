/**
 * Reward sharing arithmetic (LIP 0057 "Reward sharing"; lisk-sdk 6.1 pos/method.ts
 * updateSharedRewards, pos/utils.ts calculateStakeRewards, pos/endpoint.ts
 * getExpectedSharedRewards). Each validator keeps, per token, a sharing coefficient: the reward
 * owed per unit of stake since the chain began. A staker's reward is its stake times the growth
 * of the coefficient since its stake was last settled.
 */
import { DEFAULT_COMMISSION, MAX_NUMBER_BYTES_Q96 } from './constants.js';
import { q96, q96Ceil, q96Div, q96Floor, q96FromBytes, q96Mul, q96MulDiv, q96Sub, q96ToBytes, type Q96 } from './q96.js';
import type { SharingCoefficient, ValidatorAccount } from './stores.js';

/** The coefficient of a stake that was never settled for a token (24 zero bytes). */
export const ZERO_COEFFICIENT = Buffer.alloc(MAX_NUMBER_BYTES_Q96);

/** The part of a reward left to stakers after commission (1 − commission / 10000), in Q96. */
function rewardFraction(commission: number): Q96 {
  return q96Sub(q96(1), q96Div(q96(commission), q96(DEFAULT_COMMISSION)));
}

/**
 * The reward a stake of `amount` earned while the validator's coefficient grew from
 * `stakeCoefficient` to `validatorCoefficient` (rounded down). Throws when the stake's
 * coefficient is ahead of the validator's, as lisk-sdk does.
 */
export function calculateStakeRewards(stakeCoefficient: Buffer, amount: bigint, validatorCoefficient: Buffer): bigint {
  const growth = q96Sub(q96FromBytes(validatorCoefficient), q96FromBytes(stakeCoefficient));
  return q96Floor(q96Mul(growth, q96(amount)));
}

/** The coefficient a stake holds for `tokenID`, zero when it has none. */
export function stakeCoefficientFor(coefficients: readonly SharingCoefficient[], tokenID: Buffer): Buffer {
  return coefficients.find((entry) => entry.tokenID.equals(tokenID))?.coefficient ?? ZERO_COEFFICIENT;
}

/**
 * Adds a block reward of `tokenID` to the validator's coefficients (mutating `validator`) and
 * returns how much of the reward must be locked for its stakers: the stakers' share rounded up,
 * but never more than the reward. The validator's coefficients stay sorted by token ID.
 */
export function shareReward(validator: ValidatorAccount, tokenID: Buffer, reward: bigint): bigint {
  const totalStake = q96(validator.totalStake);
  let entry = validator.sharingCoefficients.find((coefficient) => coefficient.tokenID.equals(tokenID));
  if (entry === undefined) {
    entry = { tokenID, coefficient: Buffer.alloc(0) };
    validator.sharingCoefficients.push(entry);
  }
  const increase = q96MulDiv(q96(reward), rewardFraction(validator.commission), totalStake);
  const sharedRewards = q96Ceil(q96Mul(increase, q96Sub(totalStake, q96(validator.selfStake))));
  entry.coefficient = q96ToBytes(q96FromBytes(entry.coefficient) + increase);
  validator.sharingCoefficients.sort((a, b) => a.tokenID.compare(b.tokenID));
  return sharedRewards > reward ? reward : sharedRewards;
}

/**
 * What a new stake of `stake` would earn from one validator reward of `validatorReward`, given
 * the validator's commission and current total stake (rounded down).
 */
export function expectedSharedReward(commission: number, totalStake: bigint, validatorReward: bigint, stake: bigint): bigint {
  const perUnitStaked = q96MulDiv(q96(validatorReward), rewardFraction(commission), q96(totalStake + stake));
  return q96Floor(q96Mul(perUnitStaked, q96(stake)));
}
