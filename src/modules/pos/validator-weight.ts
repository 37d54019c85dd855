/**
 * A validator's weight (LIP 0057 "Validator weight"; lisk-sdk 6.1 pos/utils.ts
 * getValidatorWeight): the stake it received, capped at factorSelfStakes times its self-stake.
 */
export function validatorWeight(factorSelfStakes: number, selfStake: bigint, totalStake: bigint): bigint {
  const cap = selfStake * BigInt(factorSelfStakes);
  return cap < totalStake ? cap : totalStake;
}
