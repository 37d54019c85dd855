/**
 * The reward of one block (LIP 0071 "Reward computation"; lisk-sdk DynamicRewardModule
 * `_getDefaultBlockReward` and `_getBlockRewardDeduction`), computed before the block's
 * transactions and minted after them.
 */
import type { ExecutionAssets, ExecutionHeader, ReadContext } from '../base/index.js';
import type { DynamicRewardConfig } from './config.js';
import { EMPTY_KEY, REWARD_NO_REDUCTION, REWARD_REDUCTION_MAX_PREVOTES, REWARD_REDUCTION_SEED_REVEAL } from './constants.js';
import type { DynamicRewardRandomMethod, DynamicRewardDependencies } from './dependencies.js';
import { calculateDefaultReward, minimalRewardActiveValidators, stakeRewardActiveValidators } from './reward.js';
import { endOfRoundTimestampStore } from './stores.js';
import { ExecutionError } from '../../errors.js';

/**
 * The generator's reward before reductions. If every slot since the last end of round was
 * assigned to at least a round's worth of distinct validators, only the minimal reward is paid
 * (the weighted part would overpay); otherwise an active generator gets the minimal reward plus
 * its BFT-weight share of the stake pool, and an inactive (zero-weight) one the default reward.
 */
export function defaultBlockReward(
  ctx: ReadContext,
  header: Pick<ExecutionHeader, 'height' | 'timestamp' | 'generatorAddress'>,
  config: DynamicRewardConfig,
  deps: Pick<DynamicRewardDependencies, 'validators' | 'pos'>,
): bigint {
  const roundLength = deps.pos.getRoundLength(ctx);
  const { timestamp } = endOfRoundTimestampStore.getOrThrow(ctx.state, EMPTY_KEY);
  const generators = deps.validators.getGeneratorsBetweenTimestamps(ctx, timestamp, header.timestamp);

  const defaultReward = calculateDefaultReward(config, header.height);
  const minimalReward = minimalRewardActiveValidators(config, defaultReward);
  if (Object.keys(generators).length >= roundLength) return minimalReward;

  const { validators } = deps.validators.getValidatorsParams(ctx);
  let weightSum = 0n;
  let generatorWeight: bigint | undefined;
  for (const validator of validators) {
    weightSum += validator.bftWeight;
    if (validator.address.equals(header.generatorAddress)) generatorWeight = validator.bftWeight;
  }
  if (generatorWeight === undefined) {
    throw new ExecutionError('Invalid generator. Validator params does not include the validator.');
  }
  if (generatorWeight > 0n) {
    const stakePool = stakeRewardActiveValidators(validators, defaultReward, minimalReward);
    return minimalReward + (generatorWeight * stakePool) / weightSum;
  }
  return defaultReward;
}

/**
 * LIP 0071 reductions, checked in lisk-sdk's order: an invalid seed reveal forfeits the reward
 * (code 1), a block that does not imply maximal prevotes gets it divided by
 * rewardReductionFactorBFT (code 2). The seed reveal is checked even when the reward is 0.
 */
export function applyRewardReductions(
  ctx: ReadContext,
  header: Pick<ExecutionHeader, 'generatorAddress' | 'impliesMaxPrevotes'>,
  assets: ExecutionAssets,
  reward: bigint,
  config: Pick<DynamicRewardConfig, 'rewardReductionFactorBFT'>,
  random: DynamicRewardRandomMethod,
): [reward: bigint, reduction: number] {
  if (!random.isSeedRevealValid(ctx, header.generatorAddress, assets)) {
    return [0n, REWARD_REDUCTION_SEED_REVEAL];
  }
  if (!header.impliesMaxPrevotes) {
    return [reward / config.rewardReductionFactorBFT, REWARD_REDUCTION_MAX_PREVOTES];
  }
  return [reward, REWARD_NO_REDUCTION];
}
