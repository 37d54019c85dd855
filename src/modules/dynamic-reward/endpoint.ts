/**
 * RPC endpoints `dynamicReward_*` (lisk-sdk RewardEndpoint and DynamicRewardEndpoint): JSON in,
 * JSON out, amounts as decimal strings, token IDs as hex.
 */
import { decodeLisk32 } from '../../crypto/lisk32.js';
import { InvalidParamsError } from '../../errors.js';
import type { EndpointContext, EndpointHandler } from '../base/index.js';
import type { DynamicRewardConfig } from './config.js';
import { SECONDS_PER_DAY, SECONDS_PER_MONTH, SECONDS_PER_YEAR } from './constants.js';
import type { DynamicRewardDependencies } from './dependencies.js';
import { calculateDefaultReward, minimalRewardActiveValidators, stakeRewardActiveValidators } from './reward.js';
import {
  getAnnualInflationResponseSchema,
  getDefaultRewardAtHeightResponseSchema,
  getExpectedValidatorRewardsRequestSchema,
  getExpectedValidatorRewardsResponseSchema,
  getRewardTokenIDResponseSchema,
  heightRequestSchema,
} from './schemas.js';

/** What the endpoints need from the module, read at call time (config exists only after init). */
export interface DynamicRewardEndpointSource {
  config(): DynamicRewardConfig;
  blockTime(): number;
  readonly deps: Pick<DynamicRewardDependencies, 'validators' | 'pos'>;
}

const SECONDS_PER_YEAR_NUMBER = 365 * 24 * 60 * 60;

function heightParam(context: EndpointContext): number {
  const { height } = context.params;
  if (typeof height !== 'number') throw new InvalidParamsError('Parameter height must be a number.');
  if (height < 0) throw new InvalidParamsError('Parameter height cannot be smaller than 0.');
  return height;
}

/** The endpoints in lisk-sdk's metadata order. */
export function createDynamicRewardEndpoints(source: DynamicRewardEndpointSource): Record<string, EndpointHandler> {
  const defaultRewardAt = (context: EndpointContext): bigint => calculateDefaultReward(source.config(), heightParam(context));

  return {
    getDefaultRewardAtHeight: {
      request: heightRequestSchema,
      response: getDefaultRewardAtHeightResponseSchema,
      handle: (context) => ({ reward: defaultRewardAt(context).toString() }),
    },
    getAnnualInflation: {
      request: heightRequestSchema,
      response: getAnnualInflationResponseSchema,
      handle: (context) => {
        const reward = defaultRewardAt(context);
        const blocksPerYear = BigInt(Math.floor(SECONDS_PER_YEAR_NUMBER / source.blockTime()));
        return { tokenID: source.config().tokenID.toString('hex'), rate: (blocksPerYear * reward).toString() };
      },
    },
    getRewardTokenID: {
      response: getRewardTokenIDResponseSchema,
      handle: () => ({ tokenID: source.config().tokenID.toString('hex') }),
    },
    getExpectedValidatorRewards: {
      request: getExpectedValidatorRewardsRequestSchema,
      response: getExpectedValidatorRewardsResponseSchema,
      handle: (context) => expectedValidatorRewards(context, source),
    },
  };
}

/**
 * lisk-sdk getExpectedValidatorRewards: the reward the validator would get for a block at the tip
 * height if no slot were missed, and that reward spread over time at one block per round.
 */
function expectedValidatorRewards(
  context: EndpointContext,
  source: DynamicRewardEndpointSource,
): { blockReward: string; dailyReward: string; monthlyReward: string; yearlyReward: string } {
  const { validatorAddress } = context.params;
  if (typeof validatorAddress !== 'string') {
    throw new InvalidParamsError('Parameter validatorAddress must be a string.');
  }
  let address: Buffer;
  try {
    address = decodeLisk32(validatorAddress);
  } catch (error) {
    throw new InvalidParamsError(`Parameter validatorAddress is not a valid lisk32 address: ${(error as Error).message}`);
  }

  const { validators } = source.deps.validators.getValidatorsParams(context);
  let totalWeight = 0n;
  for (const validator of validators) totalWeight += validator.bftWeight;
  const validator = validators.find((candidate) => candidate.address.equals(address));
  if (validator === undefined) {
    return { blockReward: '0', dailyReward: '0', monthlyReward: '0', yearlyReward: '0' };
  }

  const config = source.config();
  const defaultReward = calculateDefaultReward(config, context.header.height);
  const minimalReward = minimalRewardActiveValidators(config, defaultReward);
  const stakePool = stakeRewardActiveValidators(validators, defaultReward, minimalReward);
  // Computed before the weight test, as in lisk-sdk (so a set of total weight 0 fails the same way).
  const additionalReward = (validator.bftWeight * stakePool) / totalWeight;
  const blockReward = validator.bftWeight > 0n ? minimalReward + additionalReward : defaultReward;

  const roundLength = source.deps.pos.getRoundLength(context);
  const rewardPerSecond = blockReward / BigInt(roundLength * source.blockTime());
  return {
    blockReward: blockReward.toString(),
    dailyReward: (SECONDS_PER_DAY * rewardPerSecond).toString(),
    monthlyReward: (SECONDS_PER_MONTH * rewardPerSecond).toString(),
    yearlyReward: (SECONDS_PER_YEAR * rewardPerSecond).toString(),
  };
}
