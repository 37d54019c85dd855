/**
 * pos:registerValidator (LIP 0057 "Validator Registration Command"; lisk-sdk 6.1
 * pos/commands/register_validator.ts): makes the sender a validator with a unique name, its
 * generator and BLS keys (registered with the validators module, which checks the proof of
 * possession) and pays the registration fee on top of the transaction's byte fee.
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
import { DEFAULT_COMMISSION } from '../constants.js';
import type { PosFeeMethod, PosValidatorsMethod } from '../dependencies.js';
import { logValidatorRegistered } from '../events.js';
import { registerValidatorParamsSchema } from '../schemas.js';
import { nameStore, validatorStore } from '../stores.js';
import { isUsername } from '../username.js';

export interface RegisterValidatorParams {
  name: string;
  blsKey: Buffer;
  proofOfPossession: Buffer;
  generatorKey: Buffer;
}

export class RegisterValidatorCommand implements Command<RegisterValidatorParams> {
  readonly name = 'registerValidator';
  readonly schema = registerValidatorParamsSchema;
  private registrationFee = 0n;

  constructor(
    private readonly validators: PosValidatorsMethod,
    private readonly fee: PosFeeMethod,
  ) {}

  init(config: PosConfig): void {
    this.registrationFee = config.validatorRegistrationFee;
  }

  /** Checks in lisk-sdk's order: name format, name free, sender not yet a validator, fee. */
  verify(context: CommandVerifyContext<RegisterValidatorParams>): VerificationResult {
    const { params, transaction } = context;
    if (!isUsername(params.name)) {
      return verifyFail(`'name' is in an unsupported format: ${params.name}`);
    }
    if (nameStore.has(context.state, Buffer.from(params.name, 'utf8'))) {
      return verifyFail('Name substore must not have an entry for the store key name');
    }
    if (validatorStore.has(context.state, transaction.senderAddress())) {
      return verifyFail('Validator substore must not have an entry for the store key address');
    }
    if (transaction.fee < this.registrationFee) {
      return verifyFail('Insufficient transaction fee.');
    }
    return VERIFY_OK;
  }

  /** Registers the keys first: a taken BLS key or a bad proof of possession fails the command there. */
  execute(context: CommandExecuteContext<RegisterValidatorParams>): void {
    const { name, blsKey, generatorKey, proofOfPossession } = context.params;
    const senderAddress = context.transaction.senderAddress();
    const height = context.header.height;

    this.validators.registerValidatorKeys(context, senderAddress, blsKey, generatorKey, proofOfPossession);
    this.fee.payFee(context, this.registrationFee);

    validatorStore.set(context.state, senderAddress, {
      name,
      totalStake: 0n,
      selfStake: 0n,
      lastGeneratedHeight: height,
      isBanned: false,
      reportMisbehaviorHeights: [],
      consecutiveMissedBlocks: 0,
      commission: DEFAULT_COMMISSION,
      lastCommissionIncreaseHeight: height,
      sharingCoefficients: [],
    });
    nameStore.set(context.state, Buffer.from(name, 'utf8'), { validatorAddress: senderAddress });
    logValidatorRegistered(context.events, { address: senderAddress, name });
  }
}
