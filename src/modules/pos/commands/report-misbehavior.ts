/**
 * pos:reportMisbehavior (LIP 0057 "Report Misbehavior Command"; lisk-sdk 6.1
 * pos/commands/report_misbehavior.ts): two contradicting headers signed by the same validator
 * (docs/protocol/bft.md) punish it — its misbehavior height is recorded, part of its self-stake
 * goes to the reporter, and after reportMisbehaviorLimitBanned punishments it is banned.
 */
import { BlockHeader } from '../../../chain/block-header.js';
import { areDistinctHeadersContradicting } from '../../../chain/contradicting-headers.js';
import { MESSAGE_TAG_BLOCK_HEADER, verifyData } from '../../../crypto/index.js';
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../base/index.js';
import { punishmentLockingPeriods, type PosConfig, type PunishmentLockingPeriods } from '../config.js';
import { POS_MODULE_NAME } from '../constants.js';
import type { PosTokenMethod, PosValidatorsMethod } from '../dependencies.js';
import { updateEligibleValidator } from '../eligible-validators.js';
import { logValidatorBanned, logValidatorPunished } from '../events.js';
import { reportMisbehaviorParamsSchema } from '../schemas.js';
import { stakerStore, validatorStore } from '../stores.js';
import { remainingPunishment } from '../unlocking.js';
import { validatorWeight } from '../validator-weight.js';
import { InvariantError, TransactionVerifyError } from '../../../errors.js';

export interface ReportMisbehaviorParams {
  header1: Buffer;
  header2: Buffer;
}

export class ReportMisbehaviorCommand implements Command<ReportMisbehaviorParams> {
  readonly name = 'reportMisbehavior';
  readonly schema = reportMisbehaviorParamsSchema;
  private config: PosConfig | undefined;
  private periods: PunishmentLockingPeriods | undefined;

  constructor(
    private readonly token: PosTokenMethod,
    private readonly validators: PosValidatorsMethod,
  ) {}

  init(config: PosConfig): void {
    this.config = config;
    this.periods = punishmentLockingPeriods(config);
  }

  /**
   * lisk-sdk's checks in its order. Like lisk-sdk, every check but the last THROWS (undecodable
   * header, different generators, unknown validator, bad signature, expired locking period,
   * already punished, already banned); only "not contradicting" is a FAIL result.
   */
  verify(context: CommandVerifyContext<ReportMisbehaviorParams>): VerificationResult {
    const { config, periods } = this.settings();
    const currentHeight = context.header.height;
    const header1 = BlockHeader.fromBytes(context.params.header1);
    const header2 = BlockHeader.fromBytes(context.params.header2);

    if (!header1.generatorAddress.equals(header2.generatorAddress)) {
      throw new TransactionVerifyError('Different generator address never contradict to each other.');
    }
    const validatorAddress = header1.generatorAddress;
    const validator = validatorStore.getOrThrow(context.state, validatorAddress);
    const { generatorKey } = this.validators.getValidatorKeys(context, validatorAddress);
    for (const header of [header1, header2]) {
      const signed = verifyData(MESSAGE_TAG_BLOCK_HEADER, context.chainID, header.signingBytes(), header.signature, generatorKey);
      if (!signed) throw new TransactionVerifyError('Invalid block signature.');
    }

    const maxPunishableHeight = Math.max(Math.abs(header1.height - currentHeight), Math.abs(header2.height - currentHeight));
    if (maxPunishableHeight >= config.lockingPeriodSelfStaking) {
      throw new TransactionVerifyError('Locking period has expired.');
    }
    if (remainingPunishment(validatorAddress, validatorAddress, validator.reportMisbehaviorHeights, currentHeight, periods) > 0) {
      throw new TransactionVerifyError('Validator is already punished.');
    }
    if (validator.isBanned) throw new TransactionVerifyError('Validator is already banned.');

    if (header1.id.equals(header2.id) || !areDistinctHeadersContradicting(header1, header2)) {
      return verifyFail('BlockHeaders are not contradicting as per BFT violation rules.');
    }
    return VERIFY_OK;
  }

  execute(context: CommandExecuteContext<ReportMisbehaviorParams>): void {
    const { config } = this.settings();
    const currentHeight = context.header.height;
    const punishedAddress = BlockHeader.fromBytes(context.params.header1).generatorAddress;
    const validator = validatorStore.getOrThrow(context.state, punishedAddress);

    validator.reportMisbehaviorHeights.push(currentHeight);
    logValidatorPunished(context.events, { address: punishedAddress, height: currentHeight });
    if (validator.reportMisbehaviorHeights.length === config.reportMisbehaviorLimitBanned) {
      validator.isBanned = true;
      logValidatorBanned(context.events, { address: punishedAddress, height: currentHeight });
    }

    // biome-ignore lint/complexity/useMathMinMax: bigint amounts, which Math.min does not take
    const reward = config.reportMisbehaviorReward > validator.selfStake ? validator.selfStake : config.reportMisbehaviorReward;
    if (reward > 0n) {
      this.token.unlock(context, punishedAddress, POS_MODULE_NAME, config.posTokenID, reward);
      this.token.transfer(context, punishedAddress, context.transaction.senderAddress(), config.posTokenID, reward);
    }

    const oldWeight = validatorWeight(config.factorSelfStakes, validator.selfStake, validator.totalStake);
    validator.selfStake -= reward;
    validator.totalStake -= reward;
    validatorStore.set(context.state, punishedAddress, validator);
    updateEligibleValidator(context.state, punishedAddress, oldWeight, validator, config);

    const staker = stakerStore.getOrThrow(context.state, punishedAddress);
    const selfStake = staker.stakes.find((stake) => stake.validatorAddress.equals(punishedAddress));
    if (selfStake === undefined) {
      // lisk-sdk dereferences the missing self-stake and fails the command with a TypeError.
      throw new TypeError('The punished validator has no self-stake to reduce.');
    }
    selfStake.amount -= reward;
    stakerStore.set(context.state, punishedAddress, staker);
  }

  private settings(): { config: PosConfig; periods: PunishmentLockingPeriods } {
    if (this.config === undefined || this.periods === undefined) {
      throw new InvariantError('The pos module is used before init.');
    }
    return { config: this.config, periods: this.periods };
  }
}
