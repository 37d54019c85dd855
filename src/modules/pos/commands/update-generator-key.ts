/**
 * pos:updateGeneratorKey (LIP 0057 "Update Generator Key Command"; lisk-sdk 6.1
 * pos/commands/update_generator_key.ts): a validator replaces its block-signing key.
 */
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../base/index.js';
import type { PosValidatorsMethod } from '../dependencies.js';
import { updateGeneratorKeyParamsSchema } from '../schemas.js';
import { validatorStore } from '../stores.js';

export interface UpdateGeneratorKeyParams {
  generatorKey: Buffer;
}

export class UpdateGeneratorKeyCommand implements Command<UpdateGeneratorKeyParams> {
  readonly name = 'updateGeneratorKey';
  readonly schema = updateGeneratorKeyParamsSchema;

  constructor(private readonly validators: PosValidatorsMethod) {}

  verify(context: CommandVerifyContext<UpdateGeneratorKeyParams>): VerificationResult {
    if (!validatorStore.has(context.state, context.transaction.senderAddress())) {
      return verifyFail('Validator substore must have an entry for the store key address');
    }
    return VERIFY_OK;
  }

  execute(context: CommandExecuteContext<UpdateGeneratorKeyParams>): void {
    this.validators.setValidatorGeneratorKey(context, context.transaction.senderAddress(), context.params.generatorKey);
  }
}
