/**
 * The `transferCrossChain` cross-chain command: what a chain does with the message a
 * `token:transferCrossChain` transaction sent to it (LIP 0051 "Cross-chain Token Transfer";
 * lisk-sdk v6.1.0 framework/src/modules/token/cc_commands/cc_transfer.ts).
 *
 * verify: a status in the range the protocol reserves, a token native to this chain or to the
 * sending chain, and for a native token enough in escrow for the sending chain.
 * execute: the token must be supported here (else a non-revertible `ccmTransfer` failure); a
 * bounced message (status ≠ OK) pays the sender back instead of the recipient; a missing account
 * is created and its initialization fee taken from the message fee (payFee while the message is
 * processed); a native token leaves the escrow; then `ccmTransfer`. That event goes to the
 * message's queue, the account creation's events to the transaction's.
 */
import { codec } from '../../../codec/index.js';
import type { CrossChainCommand, CrossChainCommandExecuteContext, ImmutableCrossChainMessageContext } from '../../base/index.js';
import { CCM_STATUS_OK, MAX_RESERVED_ERROR_STATUS } from '../../interoperability/index.js';
import { CROSS_CHAIN_COMMAND_NAME_TRANSFER, TokenEventResult } from '../constants.js';
import { ccmTransferEvent } from '../events.js';
import type { TokenInternalMethod } from '../internal-method.js';
import type { TokenMethod } from '../method.js';
import { crossChainTransferMessageParamsSchema, type CrossChainTransferMessageParams } from '../schemas.js';
import { escrowKey, escrowStore, userKey, userStore } from '../stores.js';
import { isTokenSupported } from '../supported-tokens.js';
import { tokenChainID } from '../token-id.js';
import { addAvailableBalance } from '../user-account.js';
import { ExecutionError } from '../../../errors.js';

export class CrossChainTransferCommand implements CrossChainCommand<CrossChainTransferMessageParams> {
  readonly name = CROSS_CHAIN_COMMAND_NAME_TRANSFER;
  readonly schema = crossChainTransferMessageParamsSchema;

  constructor(
    private readonly method: TokenMethod,
    private readonly internal: TokenInternalMethod,
  ) {}

  verify(context: ImmutableCrossChainMessageContext): void {
    const { ccm } = context;
    const { tokenID, amount } = codec.decode<CrossChainTransferMessageParams>(this.schema, ccm.params);
    if (ccm.status > MAX_RESERVED_ERROR_STATUS) throw new ExecutionError('Invalid CCM status code.');

    const chainOfToken = tokenChainID(tokenID);
    if (!chainOfToken.equals(context.chainID) && !chainOfToken.equals(ccm.sendingChainID)) {
      throw new ExecutionError('Token must be native to either the sending or the receiving chain.');
    }
    if (chainOfToken.equals(context.chainID) && this.method.getEscrowedAmount(context, ccm.sendingChainID, tokenID) < amount) {
      throw new ExecutionError('Insufficient balance in escrow account.');
    }
  }

  execute(context: CrossChainCommandExecuteContext<CrossChainTransferMessageParams>): void {
    const { ccm, methodContext } = context;
    const { tokenID, amount, senderAddress } = context.params;
    const eventData = {
      senderAddress,
      recipientAddress: context.params.recipientAddress,
      tokenID,
      amount,
      receivingChainID: ccm.receivingChainID,
    };

    if (!isTokenSupported(context.state, tokenID, context.chainID)) {
      ccmTransferEvent.error(context.events, eventData, TokenEventResult.TOKEN_NOT_SUPPORTED);
      throw new ExecutionError(`tokenID ${tokenID.toString('hex')} is not supported`);
    }

    // A bounced transfer returns the tokens to their sender on the chain that sent them.
    const recipientAddress = ccm.status === CCM_STATUS_OK ? eventData.recipientAddress : senderAddress;
    if (!userStore.has(context.state, userKey(recipientAddress, tokenID))) {
      this.internal.initializeUserAccount(methodContext, recipientAddress, tokenID);
    }

    if (tokenChainID(tokenID).equals(context.chainID)) {
      const key = escrowKey(ccm.sendingChainID, tokenID);
      const escrow = escrowStore.getOrThrow(context.state, key);
      if (escrow.amount < amount) throw new ExecutionError('Insufficient balance in escrow account.');
      escrow.amount -= amount;
      escrowStore.set(context.state, key, escrow);
    }

    addAvailableBalance(context.state, recipientAddress, tokenID, amount);
    ccmTransferEvent.log(context.events, { ...eventData, recipientAddress });
  }
}
