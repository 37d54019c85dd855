/**
 * initializeMessageRecovery (LIP 0054 "Message recovery initialization command"; lisk-sdk
 * mainchain/commands/initialize_message_recovery.ts): the terminated sidechain's channel to the
 * mainchain, proven in its terminated state root, tells how many messages of the mainchain's
 * outbox it had received; the rest may then be recovered (recoverMessage).
 */
import { codec, validate } from '../../../codec/index.js';
import { sha256 } from '../../../crypto/sha256.js';
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type MethodContext,
  type VerificationResult,
} from '../../base/index.js';
import { EMPTY_BYTES } from '../constants.js';
import { invalidSMTVerificationEvent, terminatedOutboxCreatedEvent } from '../events.js';
import { messageRecoveryInitializationParamsSchema } from '../schemas.js';
import { verifyStateInclusion } from '../state-recovery.js';
import {
  chainAccountStore,
  channelDataStore,
  channelSchema,
  ownChainAccountStore,
  terminatedOutboxStore,
  terminatedStateStore,
} from '../stores.js';
import type { ChannelData, TerminatedOutboxAccount } from '../types.js';
import { getMainchainID } from '../utils.js';
import { ExecutionError } from '../../../errors.js';

/** Params of initializeMessageRecovery (lisk-sdk MessageRecoveryInitializationParams). */
export interface MessageRecoveryInitializationParams {
  chainID: Buffer;
  /** The terminated chain's channel data for the mainchain (encoded). */
  channel: Buffer;
  bitmap: Buffer;
  siblingHashes: Buffer[];
}

/** LIP 0045 createTerminatedOutboxAccount (lisk-sdk internal method of the same name). */
export function createTerminatedOutboxAccount(ctx: MethodContext, chainID: Buffer, account: TerminatedOutboxAccount): void {
  terminatedOutboxStore.set(ctx.state, chainID, account);
  terminatedOutboxCreatedEvent.emit(ctx.events, account, [chainID]);
}

export class InitializeMessageRecoveryCommand implements Command<MessageRecoveryInitializationParams> {
  readonly name = 'initializeMessageRecovery';
  readonly schema = messageRecoveryInitializationParamsSchema;

  verify(context: CommandVerifyContext<MessageRecoveryInitializationParams>): VerificationResult {
    const { chainID, channel } = context.params;
    // A malformed channel throws, as in lisk-sdk; the state machine turns that into a FAIL.
    validate(channelSchema, codec.decode<ChannelData>(channelSchema, channel));

    const ownChainAccount = ownChainAccountStore.getOrThrow(context.state, EMPTY_BYTES);
    if (chainID.equals(getMainchainID(ownChainAccount.chainID)) || chainID.equals(ownChainAccount.chainID)) {
      return verifyFail('Chain ID is not valid.');
    }
    if (!chainAccountStore.has(context.state, chainID)) return verifyFail('Chain is not registered.');
    if (!terminatedStateStore.has(context.state, chainID)) return verifyFail('Terminated state account not present.');
    if (terminatedOutboxStore.has(context.state, chainID)) return verifyFail('Terminated outbox account already exists.');
    return VERIFY_OK;
  }

  /** The proof is checked here rather than in verify because it is costly and the fee must be paid for it. */
  execute(context: CommandExecuteContext<MessageRecoveryInitializationParams>): void {
    const { chainID, channel, bitmap, siblingHashes } = context.params;
    const terminatedState = terminatedStateStore.getOrThrow(context.state, chainID);
    // The terminated chain keeps its channel to the mainchain under the mainchain's chain ID.
    const query = {
      key: Buffer.concat([channelDataStore.prefix, sha256(context.chainID)]),
      value: sha256(channel),
      bitmap,
    };
    if (!verifyStateInclusion(terminatedState.stateRoot, [query], siblingHashes)) {
      invalidSMTVerificationEvent.emit(context.events, {});
      throw new ExecutionError('Message recovery initialization proof of inclusion is not valid.');
    }

    const partnerChannel = codec.decode<ChannelData>(channelSchema, channel);
    const ownChannel = channelDataStore.getOrThrow(context.state, chainID);
    createTerminatedOutboxAccount(context, chainID, {
      outboxRoot: ownChannel.outbox.root,
      outboxSize: ownChannel.outbox.size,
      partnerChainInboxSize: partnerChannel.inbox.size,
    });
  }
}
