/**
 * `legacy:registerKeys` (lisk-core legacy/commands/register_keys.ts): a
 * validator migrated from Lisk Core v3 (registered with the all-zero BLS key and banned at
 * genesis) registers its generator key and BLS key, which also lifts its ban.
 */
import { validate } from '../../../codec/index.js';
import {
  VERIFY_OK,
  verifyFail,
  verifyFailWith,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../base/index.js';
import { COMMAND_REGISTER_KEYS, INVALID_BLS_KEY } from '../constants.js';
import type { LegacyPosMethod, LegacyValidatorsMethod } from '../dependencies.js';
import { logKeysRegistered } from '../events.js';
import { registerKeysParamsSchema } from '../schemas.js';

export interface RegisterKeysParams {
  blsKey: Buffer;
  proofOfPossession: Buffer;
  generatorKey: Buffer;
}

export class RegisterKeysCommand implements Command<RegisterKeysParams> {
  readonly name = COMMAND_REGISTER_KEYS;
  readonly schema = registerKeysParamsSchema;

  constructor(private readonly deps: { readonly validators: LegacyValidatorsMethod; readonly pos: LegacyPosMethod }) {}

  /**
   * The sender must be a validator whose BLS key is still the all-zero placeholder. The proof of
   * possession is not checked here: setValidatorBLSKey checks it during execution, as in lisk-core.
   * lisk-core lets getValidatorKeys' "No validator account found for the input address." throw;
   * the state machine turns that into the same FAIL result this returns.
   */
  verify(context: CommandVerifyContext<RegisterKeysParams>): VerificationResult {
    try {
      validate(registerKeysParamsSchema, context.params);
    } catch (error) {
      return verifyFailWith(error);
    }
    let blsKey: Buffer;
    try {
      ({ blsKey } = this.deps.validators.getValidatorKeys(context, context.transaction.senderAddress()));
    } catch (error) {
      return verifyFailWith(error);
    }
    if (!blsKey.equals(INVALID_BLS_KEY)) return verifyFail('Validator already has a registered BLS key.');
    return VERIFY_OK;
  }

  /**
   * Sets the generator key, then the BLS key (which fails on a taken key or a bad proof of
   * possession), emits keysRegistered, then unbans the validator in PoS (which fails when it is
   * not banned or is banned permanently). Any failure fails the transaction and undoes it all.
   */
  execute(context: CommandExecuteContext<RegisterKeysParams>): void {
    const { blsKey, proofOfPossession, generatorKey } = context.params;
    const address = context.transaction.senderAddress();
    this.deps.validators.setValidatorGeneratorKey(context, address, generatorKey);
    this.deps.validators.setValidatorBLSKey(context, address, blsKey, proofOfPossession);
    logKeysRegistered(context.events, { address, generatorKey, blsKey });
    this.deps.pos.unbanValidator(context, address);
  }
}
