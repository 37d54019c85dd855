/**
 * Config of the dynamic reward module (`modules.dynamicReward` of a Lisk config.json; lisk-sdk
 * dynamic_reward/constants.ts defaultConfig and schemas.ts configSchema). The given section is
 * merged over the defaults key by key (lisk-sdk `objects.mergeDeep`: arrays are replaced whole,
 * null/undefined values keep the default), then validated.
 */
import { ValidationError } from '../../errors.js';

export interface DynamicRewardConfig {
  /** The token minted as block reward (8 bytes). */
  readonly tokenID: Buffer;
  /** First height that earns a reward. */
  readonly offset: number;
  /** Heights per reward bracket. */
  readonly distance: number;
  /** Default reward per block of each bracket, in beddows; the last one applies forever. */
  readonly brackets: readonly bigint[];
  /** Divisor of the reward of a block that does not imply maximal prevotes. */
  readonly rewardReductionFactorBFT: bigint;
  /** Share (in basis points) of the default reward every active validator gets regardless of weight. */
  readonly factorMinimumRewardActiveValidators: number;
}

/** lisk-sdk DEFAULT config of dynamicReward, in its JSON form; tokenID defaults to `chainID ‖ 00000000`. */
export const DEFAULT_DYNAMIC_REWARD_CONFIG = Object.freeze({
  offset: 2160,
  distance: 3_000_000,
  brackets: Object.freeze(['500000000', '400000000', '300000000', '200000000', '100000000']),
  rewardReductionFactorBFT: '4',
  factorMinimumRewardActiveValidators: 1000,
});

const MAX_UINT64 = 2n ** 64n - 1n;
const UINT64_PATTERN = /^[0-9]+$/;
const HEX_PATTERN = /^[0-9a-fA-F]*$/;

/**
 * Merges `moduleConfig` over the defaults and validates the result (lisk-sdk DynamicRewardModule.init).
 * Throws ValidationError listing every problem as `.modules.dynamicReward.<key>: reason`.
 */
export function parseDynamicRewardConfig(moduleConfig: Record<string, unknown>, chainID: Buffer): DynamicRewardConfig {
  const merged: Record<string, unknown> = {
    ...DEFAULT_DYNAMIC_REWARD_CONFIG,
    tokenID: `${chainID.toString('hex')}00000000`,
  };
  for (const [key, value] of Object.entries(moduleConfig)) {
    if (value !== undefined && value !== null) merged[key] = value;
  }

  const errors: string[] = [];
  const fail = (key: string, reason: string): void => {
    errors.push(`.modules.dynamicReward.${key}: ${reason}`);
  };

  const tokenID = merged.tokenID;
  if (typeof tokenID !== 'string' || tokenID.length !== 16 || !HEX_PATTERN.test(tokenID)) {
    fail('tokenID', `must be a hex string of 16 characters, got ${JSON.stringify(tokenID)}`);
  }
  const offset = readPositiveInteger(merged.offset, 'offset', fail);
  const distance = readPositiveInteger(merged.distance, 'distance', fail);
  const factor = readPositiveInteger(merged.factorMinimumRewardActiveValidators, 'factorMinimumRewardActiveValidators', fail);

  const brackets: bigint[] = [];
  const rawBrackets = merged.brackets;
  if (!Array.isArray(rawBrackets)) {
    fail('brackets', 'must be an array of uint64 strings');
  } else if (rawBrackets.length === 0) {
    // lisk-sdk accepts an empty list but then fails on the first rewarded block; refuse it early.
    fail('brackets', 'must hold at least one bracket');
  } else {
    rawBrackets.forEach((bracket: unknown, index: number) => {
      if (typeof bracket !== 'string' || !UINT64_PATTERN.test(bracket) || BigInt(bracket) > MAX_UINT64) {
        fail(`brackets.${index}`, `must be a uint64 string, got ${JSON.stringify(bracket)}`);
      } else {
        brackets.push(BigInt(bracket));
      }
    });
  }

  // Not in lisk-sdk's schema (it is converted with BigInt()); a zero divisor would make every block
  // without maximal prevotes fail, so it must be a positive integer here.
  let reductionFactor = 0n;
  const rawFactor = merged.rewardReductionFactorBFT;
  if (typeof rawFactor === 'string' && UINT64_PATTERN.test(rawFactor) && BigInt(rawFactor) > 0n) {
    reductionFactor = BigInt(rawFactor);
  } else if (typeof rawFactor === 'number' && Number.isSafeInteger(rawFactor) && rawFactor > 0) {
    reductionFactor = BigInt(rawFactor);
  } else {
    fail('rewardReductionFactorBFT', `must be a positive integer, got ${JSON.stringify(rawFactor)}`);
  }

  if (errors.length > 0) throw new ValidationError(errors);
  return {
    tokenID: Buffer.from(tokenID as string, 'hex'),
    offset,
    distance,
    brackets,
    rewardReductionFactorBFT: reductionFactor,
    factorMinimumRewardActiveValidators: factor,
  };
}

function readPositiveInteger(value: unknown, key: string, fail: (key: string, reason: string) => void): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    fail(key, `must be an integer >= 1, got ${JSON.stringify(value)}`);
    return 0;
  }
  return value;
}
