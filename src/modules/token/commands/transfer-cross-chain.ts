/**
 * `token:transferCrossChain` (LIP 0051 "Cross-chain Token Transfer"; lisk-sdk
 * token/commands/transfer_cross_chain.ts).
 *
 * verify (every failure is a FAIL result): the receiving chain is not this chain; the token is
 * native to this chain or to the receiving chain; `messageFeeTokenID` is the one the
 * interoperability module reports for the receiving chain (which throws "Channel does not
 * exist." when no channel to it is registered, so on a chain without sidechains every such
 * transaction fails here); and the sender's balances cover amount and message fee.
 * execute: escrows native tokens (creating the escrow account charges its initialization fee),
 * debits the sender, emits `transferCrossChain`, and sends the CCM through interoperability.
 */
import { codec } from '../../../codec/index.js';
import { encodeLisk32 } from '../../../crypto/index.js';
import {
  VERIFY_OK,
  verifyFailWith,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../base/index.js';
import { CROSS_CHAIN_COMMAND_NAME_TRANSFER } from '../constants.js';
import type { TokenDependencySlots } from '../dependencies.js';
import { addEscrowAmount } from '../escrow-account.js';
import { InsufficientBalanceError } from '../errors.js';
import { transferCrossChainEvent } from '../events.js';
import type { TokenInternalMethod } from '../internal-method.js';
import type { TokenMethod } from '../method.js';
import { crossChainTransferMessageParamsSchema, transferCrossChainParamsSchema, type TransferCrossChainParams } from '../schemas.js';
import { escrowKey, escrowStore, userKey, userStore } from '../stores.js';
import { tokenChainID } from '../token-id.js';
import { saveUserAccount } from '../user-account.js';
import { TransactionVerifyError } from '../../../errors.js';

export class TransferCrossChainCommand implements Command<TransferCrossChainParams> {
  readonly name = 'transferCrossChain';
  readonly schema = transferCrossChainParamsSchema;

  constructor(
    private readonly moduleName: string,
    private readonly method: TokenMethod,
    private readonly internal: TokenInternalMethod,
    private readonly dependencies: TokenDependencySlots,
  ) {}

  verify(context: CommandVerifyContext<TransferCrossChainParams>): VerificationResult {
    try {
      this.check(context);
    } catch (error) {
      return verifyFailWith(error);
    }
    return VERIFY_OK;
  }

  execute(context: CommandExecuteContext<TransferCrossChainParams>): void {
    const { params } = context;
    const senderAddress = context.transaction.senderAddress();
    const native = tokenChainID(params.tokenID).equals(context.chainID);

    if (native && !escrowStore.has(context.state, escrowKey(params.receivingChainID, params.tokenID))) {
      this.internal.initializeEscrowAccount(context, params.receivingChainID, params.tokenID);
    }

    const sender = userStore.getOrThrow(context.state, userKey(senderAddress, params.tokenID));
    if (sender.availableBalance < params.amount) {
      throw new InsufficientBalanceError(
        encodeLisk32(senderAddress),
        sender.availableBalance,
        params.amount,
        params.tokenID.toString('hex'),
      );
    }
    sender.availableBalance -= params.amount;
    saveUserAccount(context.state, senderAddress, params.tokenID, sender);

    if (native) addEscrowAmount(context, params.receivingChainID, params.tokenID, params.amount);

    transferCrossChainEvent.log(context.events, {
      senderAddress,
      recipientAddress: params.recipientAddress,
      tokenID: params.tokenID,
      amount: params.amount,
      receivingChainID: params.receivingChainID,
    });

    this.dependencies.interoperability.send(
      context,
      senderAddress,
      this.moduleName,
      CROSS_CHAIN_COMMAND_NAME_TRANSFER,
      params.receivingChainID,
      params.messageFee,
      codec.encode(crossChainTransferMessageParamsSchema, {
        tokenID: params.tokenID,
        amount: params.amount,
        senderAddress,
        recipientAddress: params.recipientAddress,
        data: params.data,
      }),
      context.header.timestamp,
    );
  }

  /** Throws the first failed verify check, in lisk-sdk's order. */
  private check(context: CommandVerifyContext<TransferCrossChainParams>): void {
    const { params } = context;
    const chainOfToken = tokenChainID(params.tokenID);
    if (params.receivingChainID.equals(context.chainID)) {
      throw new TransactionVerifyError('Receiving chain cannot be the sending chain.');
    }
    if (!chainOfToken.equals(context.chainID) && !chainOfToken.equals(params.receivingChainID)) {
      throw new TransactionVerifyError('Token must be native to either the sending or the receiving chain.');
    }
    const messageFeeTokenID = this.dependencies.interoperability.getMessageFeeTokenID(context, params.receivingChainID);
    if (!messageFeeTokenID.equals(params.messageFeeTokenID)) {
      throw new TransactionVerifyError('Invalid message fee Token ID.');
    }
    const senderAddress = context.transaction.senderAddress();
    const required: [Buffer, bigint][] = params.tokenID.equals(messageFeeTokenID)
      ? [[params.tokenID, params.amount + params.messageFee]]
      : [
          [params.tokenID, params.amount],
          [messageFeeTokenID, params.messageFee],
        ];
    for (const [tokenID, amount] of required) {
      const availableBalance = this.method.getAvailableBalance(context, senderAddress, tokenID);
      if (availableBalance < amount) {
        throw new InsufficientBalanceError(encodeLisk32(senderAddress), availableBalance, amount, tokenID.toString('hex'));
      }
    }
  }
}
