/**
 * `token:transfer` (LIP 0051 "Transfer"; lisk-sdk token/commands/transfer.ts).
 *
 * verify: the sender's available balance covers the amount (read before the fee module locks
 * the fee, so a transfer of the whole balance passes verify and fails in execute).
 * execute: a recipient without an account for the token is created first, which charges the
 * user-account initialization fee through the fee module (failing with fee's `insufficientFee`
 * event when the transaction fee does not cover it); then the internal transfer, which fails
 * without an event when the sender's balance no longer covers the amount.
 */
import { encodeLisk32 } from '../../../crypto/index.js';
import {
  VERIFY_OK,
  VerifyStatus,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../base/index.js';
import { InsufficientBalanceError } from '../errors.js';
import type { TokenInternalMethod } from '../internal-method.js';
import type { TokenMethod } from '../method.js';
import { transferParamsSchema, type TransferParams } from '../schemas.js';
import { userKey, userStore } from '../stores.js';

export class TransferCommand implements Command<TransferParams> {
  readonly name = 'transfer';
  readonly schema = transferParamsSchema;

  constructor(
    private readonly method: TokenMethod,
    private readonly internal: TokenInternalMethod,
  ) {}

  verify(context: CommandVerifyContext<TransferParams>): VerificationResult {
    const { params } = context;
    const senderAddress = context.transaction.senderAddress();
    const availableBalance = this.method.getAvailableBalance(context, senderAddress, params.tokenID);
    if (availableBalance < params.amount) {
      return {
        status: VerifyStatus.FAIL,
        error: new InsufficientBalanceError(encodeLisk32(senderAddress), availableBalance, params.amount),
      };
    }
    return VERIFY_OK;
  }

  execute(context: CommandExecuteContext<TransferParams>): void {
    const { params } = context;
    if (!userStore.has(context.state, userKey(params.recipientAddress, params.tokenID))) {
      this.internal.initializeUserAccount(context, params.recipientAddress, params.tokenID);
    }
    this.internal.transfer(context, context.transaction.senderAddress(), params.recipientAddress, params.tokenID, params.amount);
  }
}
