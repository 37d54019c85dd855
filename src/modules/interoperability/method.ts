/**
 * The methods other modules call on the mainchain interoperability module (LIP 0045; lisk-sdk
 * BaseInteroperabilityMethod and MainchainInteroperabilityMethod). Getters throw NotFoundError
 * for a missing entry, as lisk-sdk's store reads do.
 */
import type { MethodContext, ReadContext } from '../base/index.js';
import { CCM_STATUS_OK, ChainStatus, EMPTY_BYTES, EMPTY_FEE_ADDRESS, MAX_RESERVED_ERROR_STATUS } from './constants.js';
import type { InteroperabilityTokenMethod } from './dependencies.js';
import { InteroperabilityInternalMethod } from './internal-method.js';
import { isLive } from './liveness.js';
import { sendInternal } from './send.js';
import { chainAccountStore, channelDataStore, ownChainAccountStore, terminatedOutboxStore, terminatedStateStore } from './stores.js';
import type {
  ChainAccount,
  ChannelData,
  CrossChainMessage,
  OwnChainAccount,
  TerminatedOutboxAccount,
  TerminatedStateAccount,
} from './types.js';
import { getMainchainID } from './utils.js';
import { ExecutionError } from '../../errors.js';

export class InteroperabilityMethod {
  /** `token` is read at call time: token and interoperability depend on each other. */
  private readonly internal: InteroperabilityInternalMethod;

  constructor(private readonly token: () => InteroperabilityTokenMethod) {
    this.internal = new InteroperabilityInternalMethod(token);
  }

  getChainAccount(ctx: ReadContext, chainID: Buffer): ChainAccount {
    return chainAccountStore.getOrThrow(ctx.state, chainID);
  }

  getChannel(ctx: ReadContext, chainID: Buffer): ChannelData {
    return channelDataStore.getOrThrow(ctx.state, chainID);
  }

  getOwnChainAccount(ctx: ReadContext): OwnChainAccount {
    return ownChainAccountStore.getOrThrow(ctx.state, EMPTY_BYTES);
  }

  getTerminatedStateAccount(ctx: ReadContext, chainID: Buffer): TerminatedStateAccount {
    return terminatedStateStore.getOrThrow(ctx.state, chainID);
  }

  getTerminatedOutboxAccount(ctx: ReadContext, chainID: Buffer): TerminatedOutboxAccount {
    return terminatedOutboxStore.getOrThrow(ctx.state, chainID);
  }

  /** LIP 0045 getMessageFeeTokenID: the fee token of the channel a message to `chainID` would use. */
  getMessageFeeTokenID(ctx: ReadContext, chainID: Buffer): Buffer {
    return this.channelTowards(ctx, chainID).messageFeeTokenID;
  }

  getMessageFeeTokenIDFromCCM(ctx: ReadContext, ccm: CrossChainMessage): Buffer {
    return this.getMessageFeeTokenID(ctx, ccm.sendingChainID);
  }

  /** LIP 0045 getMinReturnFeePerByte of the channel a message to `chainID` would use. */
  getMinReturnFeePerByte(ctx: ReadContext, chainID: Buffer): bigint {
    return this.channelTowards(ctx, chainID).minReturnFeePerByte;
  }

  /** Whether `chainID` is live at `timestamp` and active (never for the own chain). */
  isChannelActive(ctx: ReadContext, chainID: Buffer, timestamp: number): boolean {
    const ownChainAccount = this.getOwnChainAccount(ctx);
    if (chainID.equals(ownChainAccount.chainID)) return false;
    const chainAccount = chainAccountStore.getOrThrow(ctx.state, chainID);
    return isLive(ctx, chainID, timestamp) && chainAccount.status === ChainStatus.ACTIVE;
  }

  /**
   * LIP 0045 send: a CCM with status OK from `module` to `receivingChainID`, its fee paid by
   * `sendingAddress` (token transferCrossChain passes the block timestamp, which the mainchain needs).
   */
  send(
    ctx: MethodContext,
    sendingAddress: Buffer,
    module: string,
    crossChainCommand: string,
    receivingChainID: Buffer,
    fee: bigint,
    params: Buffer,
    timestamp?: number,
  ): void {
    sendInternal(ctx, this.token(), {
      sendingAddress,
      module,
      crossChainCommand,
      receivingChainID,
      fee,
      status: CCM_STATUS_OK,
      params,
      timestamp,
    });
  }

  /**
   * LIP 0045 error: bounces `ccm` back to its sender. Like lisk-sdk it sends without a timestamp,
   * which the mainchain refuses.
   */
  error(ctx: MethodContext, ccm: CrossChainMessage, errorStatus: number): void {
    if (errorStatus >= 0 && errorStatus <= MAX_RESERVED_ERROR_STATUS) {
      throw new ExecutionError(
        `Error codes from 0 to ${MAX_RESERVED_ERROR_STATUS} (inclusive) are reserved to the Interoperability module.`,
      );
    }
    this.send(ctx, EMPTY_FEE_ADDRESS, ccm.module, ccm.crossChainCommand, ccm.sendingChainID, 0n, ccm.params);
  }

  /**
   * LIP 0045 terminateChain: sends channelTerminated and records the terminated state, unless the
   * chain is already terminated. Like lisk-sdk it sends without a timestamp, which the mainchain refuses.
   */
  terminateChain(ctx: MethodContext, chainID: Buffer): void {
    this.internal.terminateChainInternal(ctx, chainID);
  }

  /** lisk-sdk `_getChannelCommon`: a sidechain without a direct channel uses the one to the mainchain. */
  private channelTowards(ctx: ReadContext, chainID: Buffer): ChannelData {
    const ownChainAccount = this.getOwnChainAccount(ctx);
    if (chainID.equals(ownChainAccount.chainID)) {
      throw new ExecutionError('Channel with own chain account does not exist.');
    }
    const mainchainID = getMainchainID(chainID);
    let channelChainID = chainID;
    if (!ownChainAccount.chainID.equals(mainchainID) && !chainAccountStore.has(ctx.state, chainID)) {
      channelChainID = mainchainID;
    }
    const channel = channelDataStore.get(ctx.state, channelChainID);
    if (channel === undefined) throw new ExecutionError('Channel does not exist.');
    return channel;
  }
}
