/**
 * Processing the messages of a cross-chain update (LIP 0049 apply / forward, LIP 0045 bounce;
 * lisk-sdk base_cross_chain_update_command.ts and mainchain/commands/submit_mainchain_cross_chain_update.ts).
 *
 * Every outcome leaves one ccmProcessed event. A message that breaks the protocol (its sending
 * chain not live, a hook refusing it, params that do not decode) terminates the sending chain and
 * is discarded; a message whose command fails, or names an unknown module or command, is bounced
 * to its sender when its fee pays for the return trip, otherwise discarded.
 */
import { codec, validate } from '../../../codec/index.js';
import type { BeforeCCMForwardingContext, CrossChainMessageContext, CrossChainMethod } from '../../base/index.js';
import { CCM_STATUS_OK, ChainStatus, EMPTY_BYTES, EMPTY_FEE_ADDRESS, INTEROPERABILITY_MODULE_NAME } from '../constants.js';
import { ccmProcessedEvent, ccmSendSuccessEvent } from '../events.js';
import type { InteroperabilityInternalMethod } from '../internal-method.js';
import type { InteroperabilityMethod } from '../method.js';
import { addToOutbox } from '../outbox.js';
import { ccmSchema, crossChainUpdateParamsSchema } from '../schemas.js';
import { ccmID } from '../send.js';
import { chainAccountStore, ownChainAccountStore } from '../stores.js';
import type { CrossChainMessage } from '../types.js';
import { getMainchainID } from '../utils.js';
import type { CrossChainUpdateParams } from '../ccu/params.js';
import { CcmProcessedCode, CcmProcessedResult, CcmStatusCode, CROSS_CHAIN_COMMAND_SIDECHAIN_TERMINATED } from './codes.js';
import type { CrossChainRegistry } from './registry.js';
import { sidechainTerminatedCCMParamsSchema } from './sidechain-terminated.js';
import { restore, type Snapshot, snapshot } from './snapshot.js';

type Hook = 'beforeCrossChainCommandExecute' | 'afterCrossChainCommandExecute';

/** Encoded size of a message, the basis of its return fee. */
function ccmSize(ccm: CrossChainMessage): number {
  return codec.encode(ccmSchema, ccm).length;
}

export class CcmProcessor {
  constructor(
    private readonly registry: CrossChainRegistry,
    private readonly internal: InteroperabilityInternalMethod,
    private readonly method: InteroperabilityMethod,
  ) {}

  private processed(ctx: CrossChainMessageContext, ccm: CrossChainMessage, result: number, code: number): void {
    ccmProcessedEvent.emit(ctx.events, { ccm, result, code }, [ccm.sendingChainID, ccm.receivingChainID]);
  }

  /** Terminates the message's sending chain and reports the message discarded with `code`. */
  private discardAndTerminate(ctx: CrossChainMessageContext, code: number): void {
    this.internal.terminateChainInternal(ctx, ctx.ccm.sendingChainID);
    this.processed(ctx, ctx.ccm, CcmProcessedResult.DISCARDED, code);
  }

  /**
   * lisk-sdk verifyCCM: the sending chain must be live (no timestamp: only termination counts) and
   * every module's verifyCrossChainMessage must accept the message.
   */
  private async verifyCCM(ctx: CrossChainMessageContext): Promise<boolean> {
    try {
      if (!this.internal.isLive(ctx, ctx.ccm.sendingChainID)) {
        throw new Error(`Sending chain ${ctx.ccm.sendingChainID.toString('hex')} is not live.`);
      }
      for (const method of this.registry.methods.values()) {
        if (method.verifyCrossChainMessage) await method.verifyCrossChainMessage(ctx);
      }
      return true;
    } catch (error) {
      ctx.logger.debug({ err: error, module: ctx.ccm.module, command: ctx.ccm.crossChainCommand }, 'Cross-chain message refused');
      this.discardAndTerminate(ctx, CcmProcessedCode.INVALID_CCM_VERIFY_CCM_EXCEPTION);
      return false;
    }
  }

  /** Runs one hook of every registered module; on a throw, restores `base`, terminates and discards. */
  private async runHook(ctx: CrossChainMessageContext, hook: Hook, base: Snapshot, failureCode: number): Promise<boolean> {
    try {
      for (const method of this.registry.methods.values()) {
        const run = method[hook] as CrossChainMethod[Hook];
        if (run) await run.call(method, ctx);
      }
      return true;
    } catch (error) {
      restore(ctx, base);
      ctx.logger.debug({ err: error, module: ctx.ccm.module, command: ctx.ccm.crossChainCommand }, `${hook} failed`);
      this.discardAndTerminate(ctx, failureCode);
      return false;
    }
  }

  private before(ctx: CrossChainMessageContext, base: Snapshot): Promise<boolean> {
    return this.runHook(ctx, 'beforeCrossChainCommandExecute', base, CcmProcessedCode.INVALID_CCM_BEFORE_CCC_EXECUTION_EXCEPTION);
  }

  private after(ctx: CrossChainMessageContext, base: Snapshot): Promise<boolean> {
    return this.runHook(ctx, 'afterCrossChainCommandExecute', base, CcmProcessedCode.INVALID_CCM_AFTER_CCC_EXECUTION_EXCEPTION);
  }

  /** LIP 0049 apply: a message addressed to this chain. Never throws but for a termination the mainchain refuses. */
  async apply(ctx: CrossChainMessageContext): Promise<void> {
    const { ccm } = ctx;
    if (!(await this.verifyCCM(ctx))) return;

    const base = snapshot(ctx);
    const { known, command } = this.registry.findCommand(ccm.module, ccm.crossChainCommand);
    if (command === undefined) {
      if (!(await this.before(ctx, base))) return;
      if (!(await this.after(ctx, base))) return;
      if (known) {
        this.bounce(ctx, ccmSize(ccm), CcmStatusCode.CROSS_CHAIN_COMMAND_NOT_SUPPORTED, CcmProcessedCode.CROSS_CHAIN_COMMAND_NOT_SUPPORTED);
      } else {
        this.bounce(ctx, ccmSize(ccm), CcmStatusCode.MODULE_NOT_SUPPORTED, CcmProcessedCode.MODULE_NOT_SUPPORTED);
      }
      return;
    }

    let params: unknown;
    try {
      params = codec.decode<Record<string, unknown>>(command.schema, ccm.params);
      validate(command.schema, params as Record<string, unknown>);
      if (command.verify) await command.verify(ctx);
    } catch (error) {
      ctx.logger.debug({ err: error, module: ccm.module, command: ccm.crossChainCommand }, 'Cross-chain command refused');
      // lisk-sdk reports params errors and verify errors alike with the verifyCCM code.
      this.discardAndTerminate(ctx, CcmProcessedCode.INVALID_CCM_VERIFY_CCM_EXCEPTION);
      return;
    }

    if (!(await this.before(ctx, base))) return;

    const execution = snapshot(ctx);
    try {
      // A message from a chain with a direct channel must come through that channel, not be forwarded.
      const sendingChainExists = chainAccountStore.has(ctx.state, ccm.sendingChainID);
      const ccu = codec.decode<CrossChainUpdateParams>(crossChainUpdateParamsSchema, ctx.transaction.params);
      if (sendingChainExists && !ccu.sendingChainID.equals(ccm.sendingChainID)) {
        throw new Error('Cannot receive forwarded messages for a direct channel.');
      }
      await command.execute({ ...ctx, params });
      this.processed(ctx, ccm, CcmProcessedResult.APPLIED, CcmProcessedCode.SUCCESS);
    } catch (error) {
      ctx.logger.debug({ err: error, module: ccm.module, command: ccm.crossChainCommand }, 'Cross-chain command failed');
      restore(ctx, execution);
      if (!(await this.after(ctx, base))) return;
      this.bounce(ctx, ccmSize(ccm), CcmStatusCode.FAILED_CCM, CcmProcessedCode.FAILED_CCM);
      return;
    }
    await this.after(ctx, base);
  }

  /**
   * LIP 0049 forward (mainchain only): a message for another sidechain goes to that chain's outbox,
   * or bounces with CHANNEL_UNAVAILABLE when the chain is unknown, only registered, or not live (a
   * live-violating chain is terminated and the sender told with sidechainTerminated).
   */
  async forward(ctx: CrossChainMessageContext): Promise<void> {
    const { ccm } = ctx;
    if (!(await this.verifyCCM(ctx))) return;

    let ccmFailed = false;
    const receivingChainAccount = chainAccountStore.get(ctx.state, ccm.receivingChainID);
    if (receivingChainAccount === undefined || receivingChainAccount.status === ChainStatus.REGISTERED) {
      ccmFailed = true;
    } else if (!this.internal.isLive(ctx, ccm.receivingChainID, ctx.header.timestamp)) {
      ccmFailed = true;
      this.internal.terminateChainInternal(ctx, ccm.receivingChainID);
      this.internal.sendInternal(ctx, {
        sendingAddress: EMPTY_FEE_ADDRESS,
        module: INTEROPERABILITY_MODULE_NAME,
        crossChainCommand: CROSS_CHAIN_COMMAND_SIDECHAIN_TERMINATED,
        receivingChainID: ccm.sendingChainID,
        fee: 0n,
        status: CCM_STATUS_OK,
        params: codec.encode(sidechainTerminatedCCMParamsSchema, {
          chainID: ccm.receivingChainID,
          stateRoot: receivingChainAccount.lastCertificate.stateRoot,
        }),
      });
    }

    const base = snapshot(ctx);
    const forwardingContext: BeforeCCMForwardingContext = { ...ctx, ccmFailed };
    try {
      for (const method of this.registry.methods.values()) {
        if (method.beforeCrossChainMessageForwarding) await method.beforeCrossChainMessageForwarding(forwardingContext);
      }
    } catch (error) {
      restore(ctx, base);
      ctx.logger.debug({ err: error, module: ccm.module, command: ccm.crossChainCommand }, 'beforeCrossChainMessageForwarding failed');
      this.discardAndTerminate(ctx, CcmProcessedCode.INVALID_CCM_BEFORE_CCC_FORWARDING_EXCEPTION);
      return;
    }

    if (ccmFailed) {
      this.bounce(ctx, ccmSize(ccm), CcmStatusCode.CHANNEL_UNAVAILABLE, CcmProcessedCode.CHANNEL_UNAVAILABLE);
      return;
    }
    addToOutbox(ctx, ccm.receivingChainID, ccm);
    this.processed(ctx, ccm, CcmProcessedResult.FORWARDED, CcmProcessedCode.SUCCESS);
  }

  /**
   * LIP 0045 bounce: a failed message goes back to its sender with `statusCode`, fee 0 and the chains
   * swapped, unless it is itself a bounce or its fee is below minReturnFeePerByte × its size (then it
   * is discarded).
   */
  bounce(ctx: CrossChainMessageContext, size: number, statusCode: number, processedCode: number): void {
    const { ccm } = ctx;
    const minFee = this.method.getMinReturnFeePerByte(ctx, ccm.sendingChainID) * BigInt(size);
    if (ccm.status !== CcmStatusCode.OK || ccm.fee < minFee) {
      this.processed(ctx, ccm, CcmProcessedResult.DISCARDED, processedCode);
      return;
    }
    this.processed(ctx, ccm, CcmProcessedResult.BOUNCED, processedCode);
    const bounced: CrossChainMessage = {
      ...ccm,
      status: statusCode,
      sendingChainID: ccm.receivingChainID,
      receivingChainID: ccm.sendingChainID,
      // The message fee already went to the relayer.
      fee: 0n,
    };
    const ownChainID = ownChainAccountStore.getOrThrow(ctx.state, EMPTY_BYTES).chainID;
    const mainchainID = getMainchainID(bounced.receivingChainID);
    // A sidechain without a direct channel to the original sender returns it through the mainchain.
    const partnerChainID =
      ownChainID.equals(mainchainID) || chainAccountStore.has(ctx.state, bounced.receivingChainID) ? bounced.receivingChainID : mainchainID;
    addToOutbox(ctx, partnerChainID, bounced);
    ccmSendSuccessEvent.emit(ctx.events, { ccm: bounced }, [bounced.sendingChainID, bounced.receivingChainID, ccmID(bounced)]);
  }
}
