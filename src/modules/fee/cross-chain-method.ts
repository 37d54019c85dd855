/**
 * FeeInteroperableMethod: the fee module's hooks around every cross-chain message (LIP 0048
 * "Cross-chain update processing"; lisk-sdk v6.1.0 framework/src/modules/fee/cc_method.ts).
 *
 * Before the message's command runs, the relayer's share of the message fee (just credited to
 * the relayer by the token module's hook, which runs first) is locked and made available to
 * payFee; afterwards it is unlocked, whatever payFee consumed (account initializations on this
 * chain) is burnt or sent to the fee pool, and `relayerFeeProcessed` reports the split.
 */
import type { CrossChainMessageContext, CrossChainMethod } from '../base/index.js';
import { ccmID } from '../interoperability/index.js';
import type { FeeConfig } from './config.js';
import { CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE } from './constants.js';
import { contextStoreBigInt } from './context-store.js';
import type { FeeInteroperabilityMethod, FeeTokenMethod } from './dependencies.js';
import { relayerFeeProcessedEvent } from './events.js';

export class FeeCrossChainMethod implements CrossChainMethod {
  constructor(
    private readonly moduleName: string,
    private readonly token: FeeTokenMethod,
    private readonly interoperability: () => FeeInteroperabilityMethod,
    private readonly config: () => FeeConfig,
  ) {}

  beforeCrossChainCommandExecute(context: CrossChainMessageContext): void {
    const { ccm, methodContext } = context;
    const tokenID = this.interoperability().getMessageFeeTokenIDFromCCM(context, ccm);
    this.token.lock(methodContext, context.transaction.senderAddress, this.moduleName, tokenID, ccm.fee);
    context.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE, ccm.fee);
  }

  afterCrossChainCommandExecute(context: CrossChainMessageContext): void {
    const { ccm, methodContext } = context;
    const relayerAddress = context.transaction.senderAddress;
    const tokenID = this.interoperability().getMessageFeeTokenIDFromCCM(context, ccm);
    this.token.unlock(methodContext, relayerAddress, this.moduleName, tokenID, ccm.fee);

    const relayerAmount = contextStoreBigInt(context.contextStore, CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE);
    const burntAmount = ccm.fee - relayerAmount;
    const pool = this.config().feePoolAddress;
    if (pool !== undefined && this.token.userSubstoreExists(context, pool, tokenID)) {
      this.token.transfer(methodContext, relayerAddress, pool, tokenID, burntAmount);
    } else {
      this.token.burn(methodContext, relayerAddress, tokenID, burntAmount);
    }

    relayerFeeProcessedEvent.emit(context.events, { ccmID: ccmID(ccm), relayerAddress, burntAmount, relayerAmount }, [relayerAddress]);
    context.contextStore.delete(CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE);
  }
}
