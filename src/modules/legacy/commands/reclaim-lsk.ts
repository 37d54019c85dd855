/**
 * `legacy:reclaimLSK` (lisk-core legacy/commands/reclaim.ts): the owner of
 * a pre-v4 account that had no public key at migration proves ownership by signing with that key
 * and receives the account's whole balance from the legacy reserve.
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
import { ADDRESS_LEGACY_RESERVE, COMMAND_RECLAIM_LSK, LEGACY_MODULE_NAME } from '../constants.js';
import type { LegacyTokenMethod } from '../dependencies.js';
import { logAccountReclaimed } from '../events.js';
import { legacyAddressOfPublicKey } from '../legacy-address.js';
import { reclaimLSKParamsSchema } from '../schemas.js';
import { legacyAccountStore } from '../stores.js';
import { InvariantError } from '../../../errors.js';

export interface ReclaimLSKParams {
  amount: bigint;
}

export class ReclaimLSKCommand implements Command<ReclaimLSKParams> {
  readonly name = COMMAND_RECLAIM_LSK;
  readonly schema = reclaimLSKParamsSchema;
  private tokenID: Buffer | undefined;

  constructor(private readonly token: LegacyTokenMethod) {}

  /** Receives the module config's tokenIDReclaim (lisk-core ReclaimLSKCommand.init). */
  init(config: { readonly tokenIDReclaim: Buffer }): void {
    this.tokenID = config.tokenIDReclaim;
  }

  /** The sender's legacy address must hold an entry whose balance equals `amount` exactly. */
  verify(context: CommandVerifyContext<ReclaimLSKParams>): VerificationResult {
    try {
      validate(reclaimLSKParamsSchema, context.params);
    } catch (error) {
      return verifyFailWith(error);
    }
    const account = legacyAccountStore.get(context.state, legacyAddressOfPublicKey(context.transaction.senderPublicKey));
    if (account === undefined) return verifyFail('Public key does not correspond to a reclaimable account.');
    if (account.balance !== context.params.amount) {
      return verifyFail('Input amount does not equal the balance of the legacy account.');
    }
    return VERIFY_OK;
  }

  /**
   * Deletes the legacy entry, unlocks `amount` on the reserve (token `unlock` event), transfers it
   * to the sender's address (token `transfer` event), then emits accountReclaimed.
   */
  execute(context: CommandExecuteContext<ReclaimLSKParams>): void {
    const { amount } = context.params;
    const tokenID = this.tokenIDReclaim;
    const legacyAddress = legacyAddressOfPublicKey(context.transaction.senderPublicKey);
    legacyAccountStore.del(context.state, legacyAddress);

    const address = context.transaction.senderAddress();
    this.token.unlock(context, ADDRESS_LEGACY_RESERVE, LEGACY_MODULE_NAME, tokenID, amount);
    this.token.transfer(context, ADDRESS_LEGACY_RESERVE, address, tokenID, amount);
    logAccountReclaimed(context.events, { legacyAddress, address, amount });
  }

  private get tokenIDReclaim(): Buffer {
    if (this.tokenID === undefined) throw new InvariantError('The legacy module is used before init().');
    return this.tokenID;
  }
}
