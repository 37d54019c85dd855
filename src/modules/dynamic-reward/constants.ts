/** Constants of the dynamic reward module (LIP 0071; lisk-sdk modules/dynamic_reward and modules/reward). */

export const DYNAMIC_REWARD_MODULE_NAME = 'dynamicReward';

/** Key of the single end-of-round timestamp entry. */
export const EMPTY_KEY: Buffer = Buffer.alloc(0);

/** `reduction` codes of the rewardMinted event (lisk-sdk reward/constants.ts). */
export const REWARD_NO_REDUCTION = 0;
export const REWARD_REDUCTION_SEED_REVEAL = 1;
export const REWARD_REDUCTION_MAX_PREVOTES = 2;
export const REWARD_REDUCTION_NO_ACCOUNT = 3;

/** factorMinimumRewardActiveValidators is in basis points of the default reward. */
export const DECIMAL_PERCENT_FACTOR = 10_000n;

/** Context-store keys that carry the reward from beforeTransactionsExecute to afterTransactionsExecute. */
export const CONTEXT_STORE_KEY_BLOCK_REWARD = 'CONTEXT_STORE_KEY_DYNAMIC_BLOCK_REWARD';
export const CONTEXT_STORE_KEY_BLOCK_REDUCTION = 'CONTEXT_STORE_KEY_DYNAMIC_BLOCK_REDUCTION';

/** Seconds used by getExpectedValidatorRewards and getAnnualInflation. */
export const SECONDS_PER_DAY = 86_400n;
export const SECONDS_PER_MONTH = 2_592_000n;
export const SECONDS_PER_YEAR = 31_536_000n;
