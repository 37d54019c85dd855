/**
 * What the cross-chain update and cross-chain commands need from the interoperability module,
 * with the one rule that differs between a mainchain and a sidechain, liveness (LIP 0045;
 * lisk-sdk base_interoperability_internal_methods.ts, mainchain/ and sidechain/internal_method.ts).
 */
import type { MethodContext, ReadContext } from '../base/index.js';
import {
  CCM_STATUS_OK,
  ChainStatus,
  CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED,
  EMPTY_BYTES,
  EMPTY_FEE_ADDRESS,
  INTEROPERABILITY_MODULE_NAME,
} from './constants.js';
import type { InteroperabilityTokenMethod } from './dependencies.js';
import { isLive as isLiveOnMainchain } from './liveness.js';
import { sendInternal, type SendRequest } from './send.js';
import { chainAccountStore, ownChainAccountStore, terminatedStateStore } from './stores.js';
import { createTerminatedStateAccount } from './terminated-state.js';

export class InteroperabilityInternalMethod {
  constructor(
    /** The token module's methods, read at call time (token and interoperability depend on each other). */
    private readonly token: () => InteroperabilityTokenMethod,
    /** Which chain kind's liveness rule applies. */
    readonly onMainchain: boolean,
  ) {}

  /**
   * LIP 0045 isLive. On the mainchain an active chain is live while its last certificate is at most
   * LIVENESS_LIMIT seconds older than `timestamp` (without one the age is not tested, as lisk-sdk's
   * arithmetic on `undefined` gives). On a sidechain a chain is live unless it is terminated or has
   * a terminated state account; the timestamp is ignored.
   */
  isLive(ctx: ReadContext, chainID: Buffer, timestamp?: number): boolean {
    if (this.onMainchain) return isLiveOnMainchain(ctx, chainID, timestamp);
    const ownChainAccount = ownChainAccountStore.getOrThrow(ctx.state, EMPTY_BYTES);
    if (chainID.equals(ownChainAccount.chainID)) return true;
    if (chainAccountStore.get(ctx.state, chainID)?.status === ChainStatus.TERMINATED) return false;
    return !terminatedStateStore.has(ctx.state, chainID);
  }

  /** LIP 0045 sendInternal (see send.ts). */
  sendInternal(ctx: MethodContext, request: SendRequest): void {
    sendInternal(ctx, this.token(), request);
  }

  /**
   * LIP 0045 terminateChainInternal: unless already terminated, sends channelTerminated to the chain
   * and records its terminated state. lisk-sdk sends without a timestamp, so on the mainchain the
   * send throws ("Timestamp must be provided in mainchain context."); callers rely on that.
   */
  terminateChainInternal(ctx: MethodContext, chainID: Buffer): void {
    if (terminatedStateStore.has(ctx.state, chainID)) return;
    this.sendInternal(ctx, {
      sendingAddress: EMPTY_FEE_ADDRESS,
      module: INTEROPERABILITY_MODULE_NAME,
      crossChainCommand: CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED,
      receivingChainID: chainID,
      fee: 0n,
      status: CCM_STATUS_OK,
      params: EMPTY_BYTES,
    });
    createTerminatedStateAccount(ctx, chainID);
  }
}
