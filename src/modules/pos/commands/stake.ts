/**
 * pos:stake (LIP 0057 "Stake Command"; lisk-sdk 6.1 pos/commands/stake.ts): adds stakes
 * (locking the sender's tokens) and removes them (creating pending unlocks), settling the
 * rewards a changed stake earned so far. Downstakes are applied before upstakes.
 */
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../base/index.js';
import type { PosConfig } from '../config.js';
import { POS_MODULE_NAME, StakeEventResult } from '../constants.js';
import type { PosTokenMethod } from '../dependencies.js';
import { updateEligibleValidator } from '../eligible-validators.js';
import { logValidatorStaked, logValidatorStakeFailed } from '../events.js';
import type { PosInternalMethod } from '../internal-method.js';
import { stakeParamsSchema } from '../schemas.js';
import { getStakerOrDefault, stakerStore, validatorStore } from '../stores.js';
import { sortUnlocking } from '../unlocking.js';
import { validatorWeight } from '../validator-weight.js';
import { ExecutionError, InvariantError } from '../../../errors.js';

export interface StakeParams {
  stakes: { validatorAddress: Buffer; amount: bigint }[];
}

export class StakeCommand implements Command<StakeParams> {
  readonly name = 'stake';
  readonly schema = stakeParamsSchema;
  private config: PosConfig | undefined;

  constructor(
    private readonly token: PosTokenMethod,
    private readonly internal: PosInternalMethod,
  ) {}

  init(config: PosConfig): void {
    this.config = config;
  }

  /** Per entry: unique validator, non-zero, a multiple of baseStakeAmount; then the count limits. */
  verify(context: CommandVerifyContext<StakeParams>): VerificationResult {
    const config = this.settings;
    let upstakes = 0;
    let downstakes = 0;
    const seen = new Set<string>();
    for (const stake of context.params.stakes) {
      const key = stake.validatorAddress.toString('hex');
      if (seen.has(key)) return verifyFail('Validator address must be unique.');
      seen.add(key);
      if (stake.amount === 0n) return verifyFail('Amount cannot be 0.');
      if (stake.amount % config.baseStakeAmount !== 0n) return verifyFail('Amount should be multiple of 10 * 10^8.');
      if (stake.amount > 0n) upstakes += 1;
      else downstakes += 1;
    }
    if (upstakes > config.maxNumberSentStakes) {
      return verifyFail(`Upstake can only be casted up to ${config.maxNumberSentStakes}.`);
    }
    if (downstakes > config.maxNumberSentStakes) {
      return verifyFail(`Downstake can only be casted up to ${config.maxNumberSentStakes}.`);
    }
    return VERIFY_OK;
  }

  /**
   * Applies the entries by ascending amount (so every downstake comes first; equal amounts keep
   * their order). A failing entry emits a non-revertible validatorStaked event with the reason
   * and fails the whole command.
   */
  execute(context: CommandExecuteContext<StakeParams>): void {
    const config = this.settings;
    const senderAddress = context.transaction.senderAddress();
    const height = context.header.height;
    const stakes = [...context.params.stakes].sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? 1 : -1));

    for (const { validatorAddress, amount } of stakes) {
      const eventData = { senderAddress, validatorAddress, amount };
      // Records the failure event, then gives the error for the caller to throw.
      const fail = (result: StakeEventResult, message: string): Error => {
        logValidatorStakeFailed(context.events, eventData, result);
        return new ExecutionError(message);
      };

      const staker = getStakerOrDefault(context.state, senderAddress);
      const validator = validatorStore.get(context.state, validatorAddress);
      if (validator === undefined) {
        throw fail(StakeEventResult.FAILED_NON_REGISTERED_VALIDATOR, 'Invalid stake: no registered validator with the specified address');
      }
      const existing = staker.stakes.find((stake) => stake.validatorAddress.equals(validatorAddress));

      if (amount < 0n) {
        if (existing === undefined) {
          throw fail(
            StakeEventResult.FAILED_INVALID_UNSTAKE_PARAMETERS,
            'Invalid unstake: Cannot cast downstake to validator who is not upstaked.',
          );
        }
        if (existing.amount + amount < 0n) {
          throw fail(
            StakeEventResult.FAILED_INVALID_UNSTAKE_PARAMETERS,
            'Invalid unstake: The unstake amount exceeds the staked amount for this validator.',
          );
        }
        this.internal.assignStakeRewards(context, senderAddress, existing, validator);
        existing.amount += amount;
        existing.sharingCoefficients = validator.sharingCoefficients;
        if (existing.amount === 0n) {
          staker.stakes = staker.stakes.filter((stake) => !stake.validatorAddress.equals(validatorAddress));
        }
        staker.pendingUnlocks.push({ validatorAddress, amount: -amount, unstakeHeight: height });
        sortUnlocking(staker.pendingUnlocks);
        if (staker.pendingUnlocks.length > config.maxNumberPendingUnlocks) {
          throw fail(StakeEventResult.FAILED_TOO_MANY_PENDING_UNLOCKS, `Pending unlocks cannot exceed ${config.maxNumberPendingUnlocks}.`);
        }
      } else {
        this.token.lock(context, senderAddress, POS_MODULE_NAME, config.posTokenID, amount);
        if (existing !== undefined) {
          this.internal.assignStakeRewards(context, senderAddress, existing, validator);
          existing.amount += amount;
          existing.sharingCoefficients = validator.sharingCoefficients;
        } else {
          staker.stakes.push({ validatorAddress, amount, sharingCoefficients: validator.sharingCoefficients });
        }
        staker.stakes.sort((a, b) => a.validatorAddress.compare(b.validatorAddress));
        if (staker.stakes.length > config.maxNumberSentStakes) {
          throw fail(StakeEventResult.FAILED_TOO_MANY_SENT_STAKES, `Sender can only stake upto ${config.maxNumberSentStakes}.`);
        }
      }

      const previousWeight = validatorWeight(config.factorSelfStakes, validator.selfStake, validator.totalStake);
      if (senderAddress.equals(validatorAddress)) validator.selfStake += amount;
      validator.totalStake += amount;
      updateEligibleValidator(context.state, validatorAddress, previousWeight, validator, config);
      stakerStore.set(context.state, senderAddress, staker);
      validatorStore.set(context.state, validatorAddress, validator);
      logValidatorStaked(context.events, eventData);
    }
  }

  private get settings(): PosConfig {
    if (this.config === undefined) throw new InvariantError('The pos module is used before init.');
    return this.config;
  }
}
