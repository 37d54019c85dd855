/**
 * The `registration` cross-chain command (LIP 0049 "Registration message"; lisk-sdk
 * base_cc_commands/registration.ts): the partner chain's first message, which activates the
 * channel. lisk-sdk 6.1 sets a chain ACTIVE only here, when the message arrives inside a CCU.
 */
import { codec } from '../../../codec/index.js';
import { ExecutionError } from '../../../errors.js';
import type { CrossChainCommand, CrossChainMessageContext, ImmutableCrossChainMessageContext } from '../../base/index.js';
import { CCM_STATUS_OK, ChainStatus, CROSS_CHAIN_COMMAND_REGISTRATION, EMPTY_BYTES } from '../constants.js';
import { chainAccountUpdatedEvent } from '../events.js';
import { crossChainUpdateParamsSchema, registrationCCMParamsSchema } from '../schemas.js';
import { chainAccountStore, channelDataStore, ownChainAccountStore } from '../stores.js';
import { getMainchainID } from '../utils.js';
import type { CrossChainUpdateParams } from '../ccu/params.js';

interface RegistrationParams {
  name: string;
  chainID: Buffer;
  messageFeeTokenID: Buffer;
  minReturnFeePerByte: bigint;
}

export class RegistrationCrossChainCommand implements CrossChainCommand<RegistrationParams> {
  readonly name = CROSS_CHAIN_COMMAND_REGISTRATION;
  readonly schema = registrationCCMParamsSchema;

  /** LIP 0049 registration checks with lisk-sdk's messages, in its order. */
  verify(ctx: ImmutableCrossChainMessageContext): void {
    const { ccm } = ctx;
    const ccu = codec.decode<CrossChainUpdateParams>(crossChainUpdateParamsSchema, ctx.transaction.params);
    const params = codec.decode<RegistrationParams>(registrationCCMParamsSchema, ccm.params);
    const ownChainAccount = ownChainAccountStore.getOrThrow(ctx.state, EMPTY_BYTES);
    const chainAccount = chainAccountStore.getOrThrow(ctx.state, ccm.sendingChainID);
    if (!ccm.sendingChainID.equals(ccu.sendingChainID)) {
      throw new ExecutionError('Registration message must be sent from a direct channel.');
    }
    if (chainAccount.status !== ChainStatus.REGISTERED) {
      throw new ExecutionError(`Registration message must be sent from a chain with status ${ChainStatus.REGISTERED}.`);
    }
    const channel = channelDataStore.getOrThrow(ctx.state, ccm.sendingChainID);
    if (channel.inbox.size !== 0) throw new ExecutionError('Registration message must be the first message in the inbox.');
    if (ccm.status !== CCM_STATUS_OK) throw new ExecutionError(`Registration message must have status ${CCM_STATUS_OK}.`);
    if (!ownChainAccount.chainID.equals(ccm.receivingChainID)) {
      throw new ExecutionError('Registration message must be sent to the chain account ID of the chain.');
    }
    if (!ownChainAccount.chainID.equals(params.chainID)) {
      throw new ExecutionError('Registration message must contain the chain ID of the receiving chain.');
    }
    if (ownChainAccount.name !== params.name) {
      throw new ExecutionError('Registration message must contain the name of the registered chain.');
    }
    if (!channel.messageFeeTokenID.equals(params.messageFeeTokenID)) {
      throw new ExecutionError('Registration message must contain the same message fee token ID as the channel account.');
    }
    if (channel.minReturnFeePerByte !== params.minReturnFeePerByte) {
      throw new ExecutionError('Registration message must contain the same minimum return fee per byte as the channel account.');
    }
    if (ownChainAccount.chainID.equals(getMainchainID(ctx.chainID)) && ccm.nonce !== 0n) {
      throw new ExecutionError('Registration message must have nonce 0.');
    }
  }

  /** The sending chain becomes ACTIVE. */
  execute(ctx: CrossChainMessageContext): void {
    const { sendingChainID } = ctx.ccm;
    const chainAccount = { ...chainAccountStore.getOrThrow(ctx.state, sendingChainID), status: ChainStatus.ACTIVE };
    chainAccountStore.set(ctx.state, sendingChainID, chainAccount);
    chainAccountUpdatedEvent.emit(ctx.events, chainAccount, [sendingChainID]);
  }
}
