/**
 * The reward arithmetic of LIP 0071 (lisk-sdk reward/calculate_reward.ts and dynamic_reward/utils.ts),
 * as pure functions of the config and the validator set.
 */
import type { DynamicRewardConfig } from './config.js';
import { DECIMAL_PERCENT_FACTOR } from './constants.js';

/** A validator of the BFT set as far as rewards care. */
export interface WeightedValidator {
  readonly address: Buffer;
  readonly bftWeight: bigint;
}

/**
 * LIP 0071 default reward at `height`: 0 before `offset`, then one bracket per `distance` heights,
 * the last bracket forever after.
 */
export function calculateDefaultReward(config: Pick<DynamicRewardConfig, 'offset' | 'distance' | 'brackets'>, height: number): bigint {
  if (height < config.offset) return 0n;
  const location = Math.trunc((height - config.offset) / config.distance);
  const lastIndex = config.brackets.length - 1;
  return config.brackets[Math.min(location, lastIndex)] as bigint;
}

/** LIP 0071: the part of the default reward every active validator receives whatever its weight. */
export function minimalRewardActiveValidators(
  config: Pick<DynamicRewardConfig, 'factorMinimumRewardActiveValidators'>,
  defaultReward: bigint,
): bigint {
  return (defaultReward * BigInt(config.factorMinimumRewardActiveValidators)) / DECIMAL_PERCENT_FACTOR;
}

/**
 * LIP 0071: the pool shared by weight among active validators, i.e. what is left of the default
 * reward above the minimal one, times the number of validators with a positive BFT weight.
 */
export function stakeRewardActiveValidators(
  validators: readonly WeightedValidator[],
  defaultReward: bigint,
  minimalReward: bigint,
): bigint {
  let active = 0n;
  for (const validator of validators) {
    if (validator.bftWeight > 0n) active += 1n;
  }
  return active * (defaultReward - minimalReward);
}
