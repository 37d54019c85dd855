/**
 * pos:changeCommission (LIP 0057 "Change Commission Command"; lisk-sdk 6.1
 * pos/commands/change_commission.ts): a validator sets the share of its block rewards it keeps.
 * Increases are limited to maxCommissionIncreaseRate and to one per commissionIncreasePeriod.
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
import { logCommissionChange } from '../events.js';
import { changeCommissionParamsSchema } from '../schemas.js';
import { validatorStore } from '../stores.js';

export interface ChangeCommissionParams {
  newCommission: number;
}

export class ChangeCommissionCommand implements Command<ChangeCommissionParams> {
  readonly name = 'changeCommission';
  readonly schema = changeCommissionParamsSchema;
  private commissionIncreasePeriod = 0;
  private maxCommissionIncreaseRate = 0;

  init(config: PosConfig): void {
    this.commissionIncreasePeriod = config.commissionIncreasePeriod;
    this.maxCommissionIncreaseRate = config.maxCommissionIncreaseRate;
  }

  verify(context: CommandVerifyContext<ChangeCommissionParams>): VerificationResult {
    const validator = validatorStore.get(context.state, context.transaction.senderAddress());
    if (validator === undefined) {
      return verifyFail('Transaction sender has not registered as a validator.');
    }
    const { newCommission } = context.params;
    const increasedRecently = context.header.height - validator.lastCommissionIncreaseHeight < this.commissionIncreasePeriod;
    if (newCommission > validator.commission && increasedRecently) {
      return verifyFail(
        `Can only increase the commission again ${this.commissionIncreasePeriod} blocks after the last commission increase.`,
      );
    }
    if (newCommission - validator.commission > this.maxCommissionIncreaseRate) {
      return verifyFail(`Invalid argument: Commission increase larger than ${this.maxCommissionIncreaseRate}.`);
    }
    return VERIFY_OK;
  }

  /** Setting the same commission again counts as an increase (restarts the period), as in lisk-sdk. */
  execute(context: CommandExecuteContext<ChangeCommissionParams>): void {
    const senderAddress = context.transaction.senderAddress();
    const validator = validatorStore.getOrThrow(context.state, senderAddress);
    const oldCommission = validator.commission;
    validator.commission = context.params.newCommission;
    if (validator.commission >= oldCommission) {
      validator.lastCommissionIncreaseHeight = context.header.height;
    }
    validatorStore.set(context.state, senderAddress, validator);
    logCommissionChange(context.events, {
      validatorAddress: senderAddress,
      oldCommission,
      newCommission: context.params.newCommission,
    });
  }
}
