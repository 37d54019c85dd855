/**
 * What the cross-chain update and cross-chain commands need from the interoperability module
 * (LIP 0045; lisk-sdk base_interoperability_internal_methods.ts, mainchain/ and
 * sidechain/internal_method.ts). The one rule that differs between the chain kinds, liveness, is
 * chosen by liveness.ts from the own chain account.
 */
import type { MethodContext, ReadContext } from '../base/index.js';
import {
  CCM_STATUS_OK,
  CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED,
  EMPTY_BYTES,
  EMPTY_FEE_ADDRESS,
  INTEROPERABILITY_MODULE_NAME,
} from './constants.js';
import type { InteroperabilityTokenMethod } from './dependencies.js';
import { isLive } from './liveness.js';
import { sendInternal, type SendRequest } from './send.js';
import { terminatedStateStore } from './stores.js';
import { createTerminatedStateAccount } from './terminated-state.js';

export class InteroperabilityInternalMethod {
  constructor(
    /** The token module's methods, read at call time (token and interoperability depend on each other). */
    private readonly token: () => InteroperabilityTokenMethod,
  ) {}

  /** LIP 0045 isLive, by the rule of this chain's kind (see liveness.ts). */
  isLive(ctx: ReadContext, chainID: Buffer, timestamp?: number): boolean {
    return isLive(ctx, chainID, timestamp);
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
