/**
 * Helpers shared by the stake and claimRewards commands, the method and the endpoints
 * (lisk-sdk 6.1 pos/internal_method.ts).
 */
import type { MethodContext, ReadContext } from '../base/index.js';
import { POS_MODULE_NAME } from './constants.js';
import type { PosTokenMethod } from './dependencies.js';
import { logRewardsAssigned } from './events.js';
import { calculateStakeRewards, stakeCoefficientFor } from './reward-sharing.js';
import { getStakerOrDefault, type StakeObject, type ValidatorAccount } from './stores.js';

export class PosInternalMethod {
  constructor(private readonly token: PosTokenMethod) {}

  /**
   * Pays a staker what its stake on one validator earned since it was last settled, token by
   * token in the validator's coefficient order: unlock from the validator's locked rewards,
   * transfer to the staker, emit rewardsAssigned. Self-stakes earn nothing this way. Does not
   * update the stake's coefficients: callers do.
   */
  assignStakeRewards(ctx: MethodContext, stakerAddress: Buffer, sentStake: StakeObject, validator: ValidatorAccount): void {
    if (sentStake.validatorAddress.equals(stakerAddress)) return;
    for (const { tokenID, coefficient } of validator.sharingCoefficients) {
      const reward = calculateStakeRewards(stakeCoefficientFor(sentStake.sharingCoefficients, tokenID), sentStake.amount, coefficient);
      if (reward <= 0n) continue;
      this.token.unlock(ctx, sentStake.validatorAddress, POS_MODULE_NAME, tokenID, reward);
      this.token.transfer(ctx, sentStake.validatorAddress, stakerAddress, tokenID, reward);
      logRewardsAssigned(ctx.events, {
        stakerAddress,
        validatorAddress: sentStake.validatorAddress,
        tokenID,
        amount: reward,
      });
    }
  }

  /** Everything the address has staked or is waiting to unlock (0 for a non-staker). */
  getLockedStakedAmount(ctx: ReadContext, address: Buffer): bigint {
    const staker = getStakerOrDefault(ctx.state, address);
    let locked = 0n;
    for (const stake of staker.stakes) locked += stake.amount;
    for (const unlock of staker.pendingUnlocks) locked += unlock.amount;
    return locked;
  }
}
