/**
 * pos:claimRewards (LIP 0057 "Claim Rewards Command"; lisk-sdk 6.1
 * pos/commands/claim_rewards.ts): pays the sender the shared rewards of all its stakes and
 * settles each stake at its validator's current coefficients. Fails for an address that never
 * staked.
 */
import type { Command, CommandExecuteContext } from '../../base/index.js';
import type { PosInternalMethod } from '../internal-method.js';
import { emptyParamsSchema } from '../schemas.js';
import { stakerStore, validatorStore } from '../stores.js';

export class ClaimRewardsCommand implements Command<Record<string, never>> {
  readonly name = 'claimRewards';
  readonly schema = emptyParamsSchema;

  constructor(private readonly internal: PosInternalMethod) {}

  execute(context: CommandExecuteContext<Record<string, never>>): void {
    const senderAddress = context.transaction.senderAddress();
    const staker = stakerStore.getOrThrow(context.state, senderAddress);
    for (const stake of staker.stakes) {
      const validator = validatorStore.getOrThrow(context.state, stake.validatorAddress);
      this.internal.assignStakeRewards(context, senderAddress, stake, validator);
      stake.sharingCoefficients = validator.sharingCoefficients;
    }
    stakerStore.set(context.state, senderAddress, staker);
  }
}
