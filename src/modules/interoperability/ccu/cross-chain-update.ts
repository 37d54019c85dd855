/**
 * What the mainchain and sidechain cross-chain update commands share (LIP 0053; lisk-sdk
 * base_cross_chain_update_command.ts): the checks of verification, the certificate signature and
 * outbox root checks of execution, decoding and routing the messages, and the final writes.
 */
import { codec } from '../../../codec/index.js';
import { sha256 } from '../../../crypto/sha256.js';
import { ExecutionError, ExecutionPanicError } from '../../../errors.js';
import {
  VERIFY_OK,
  verifyFail,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type CrossChainMessageContext,
  type VerificationResult,
} from '../../base/index.js';
import { ChainStatus, EMPTY_BYTES } from '../constants.js';
import type { InteroperabilityTokenMethod } from '../dependencies.js';
import { ccmProcessedEvent } from '../events.js';
import type { InteroperabilityInternalMethod } from '../internal-method.js';
import type { InteroperabilityMethod } from '../method.js';
import { ccmSchema, crossChainUpdateParamsSchema } from '../schemas.js';
import { validateCcmFormat } from '../send.js';
import { chainAccountStore, chainValidatorsStore, ownChainAccountStore } from '../stores.js';
import type { CrossChainMessage } from '../types.js';
import { CcmProcessedCode, CcmProcessedResult, CcmStatusCode, CONTEXT_STORE_KEY_CCM_PROCESSING, EMPTY_CCM } from '../ccm/codes.js';
import { crossChainMessageContext } from '../ccm/context.js';
import { CcmProcessor } from '../ccm/processor.js';
import type { CrossChainRegistry } from '../ccm/registry.js';
import {
  CERTIFICATE_CHECKS_ON_THIS_THREAD,
  updateCertificate,
  verifyCertificate,
  verifyCertificateSignature,
  type CertificateSignatureChecks,
} from './certificate.js';
import { appendToInboxTree, updatePartnerChainOutboxRoot, verifyOutboxRootWitness, verifyPartnerChainOutboxRoot } from './inbox-update.js';
import { changesValidators, isInboxUpdateEmpty, type CrossChainUpdateParams } from './params.js';
import { updateValidators, verifyValidatorsUpdate } from './validators-update.js';

export interface CrossChainUpdateDependencies {
  readonly registry: CrossChainRegistry;
  readonly internal: InteroperabilityInternalMethod;
  readonly method: InteroperabilityMethod;
  /** Read at call time (the token module is wired after the interoperability module is built). */
  readonly token: () => InteroperabilityTokenMethod;
}

/**
 * lisk-sdk stops the node when processing the messages of a CCU throws (its `panic`), so the
 * block carrying it can never be applied; Basalt makes that block invalid.
 */
export class CrossChainUpdatePanicError extends ExecutionPanicError {
  constructor(cause: unknown) {
    super(`Processing the cross-chain messages of a CCU failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export abstract class CrossChainUpdateCommand {
  readonly schema = crossChainUpdateParamsSchema;
  protected readonly processor: CcmProcessor;
  private certificateChecks: CertificateSignatureChecks = CERTIFICATE_CHECKS_ON_THIS_THREAD;

  constructor(protected readonly deps: CrossChainUpdateDependencies) {
    this.processor = new CcmProcessor(deps.registry, deps.internal, deps.method);
  }

  /** Where the certificate's pairing is answered (certificate.ts); on this thread until told otherwise. */
  useCertificateSignatureChecks(checks: CertificateSignatureChecks): void {
    this.certificateChecks = checks;
  }

  /** Runs verification checks that throw, answering FAIL with the first one's message (as lisk-sdk's state machine does). */
  protected verificationOf(checks: () => void): VerificationResult {
    try {
      checks();
      return VERIFY_OK;
    } catch (error) {
      return verifyFail(error instanceof Error ? error.message : String(error));
    }
  }

  /** LIP 0053 verifyCommon, with lisk-sdk's checks and messages in its order; throws the first failure. */
  protected verifyCommon(ctx: CommandVerifyContext<CrossChainUpdateParams>): void {
    const { params } = ctx;
    const { internal } = this.deps;
    const ownChainAccount = ownChainAccountStore.getOrThrow(ctx.state, EMPTY_BYTES);
    if (params.sendingChainID.equals(ownChainAccount.chainID)) {
      throw new ExecutionError('The sending chain cannot be the same as the receiving chain.');
    }
    if (params.certificate.length === 0 && isInboxUpdateEmpty(params.inboxUpdate)) {
      throw new ExecutionError('A cross-chain update must contain a non-empty certificate and/or a non-empty inbox update.');
    }
    const sendingChainAccount = chainAccountStore.get(ctx.state, params.sendingChainID);
    if (sendingChainAccount === undefined) throw new ExecutionError('The sending chain is not registered.');
    // The block timestamp only counts on the mainchain (a sidechain's rule ignores it).
    if (!internal.isLive(ctx, params.sendingChainID, ctx.header.timestamp)) throw new ExecutionError('The sending chain is not live.');
    if (sendingChainAccount.status === ChainStatus.REGISTERED && params.certificate.length === 0) {
      throw new ExecutionError(
        `Cross-chain updates from chains with status ${ChainStatus.REGISTERED} must contain a non-empty certificate.`,
      );
    }
    if (params.certificate.length > 0) verifyCertificate(ctx, params, ctx.header.timestamp);
    const { certificateThreshold } = chainValidatorsStore.getOrThrow(ctx.state, params.sendingChainID);
    if (changesValidators(params, certificateThreshold)) verifyValidatorsUpdate(ctx, params);
    if (!isInboxUpdateEmpty(params.inboxUpdate)) verifyOutboxRootWitness(params);
  }

  /**
   * The costly checks, made at execution so that the pool does no pairing for free: the
   * certificate signature, and with messages the outbox root; then the relayer's account for the
   * message fee token is created when missing (paid by lisk-sdk's token module as usual).
   */
  protected verifySignatureAndOutboxRoot(ctx: CommandExecuteContext<CrossChainUpdateParams>): void {
    const { params } = ctx;
    verifyCertificateSignature(ctx, params, this.certificateChecks);
    if (isInboxUpdateEmpty(params.inboxUpdate)) return;
    verifyPartnerChainOutboxRoot(ctx, params);
    const messageFeeTokenID = this.deps.method.getMessageFeeTokenID(ctx, params.sendingChainID);
    this.deps.token().initializeUserAccount(ctx, ctx.transaction.senderAddress(), messageFeeTokenID);
  }

  /**
   * LIP 0053 beforeCrossChainMessagesExecution: every message must decode, be well-formed and
   * follow the routing rules; the first that does not terminates the sending chain, is reported
   * discarded, and ends the CCU without any further write (undefined is returned).
   */
  protected decodeMessages(ctx: CommandExecuteContext<CrossChainUpdateParams>, onMainchain: boolean): CrossChainMessage[] | undefined {
    const { params } = ctx;
    const ccms: CrossChainMessage[] = [];
    for (const ccmBytes of params.inboxUpdate.crossChainMessages) {
      const id = sha256(ccmBytes);
      let ccm: CrossChainMessage;
      try {
        ccm = codec.decode<CrossChainMessage>(ccmSchema, ccmBytes);
      } catch {
        const ccmContext = crossChainMessageContext(ctx, EMPTY_CCM, id);
        this.deps.internal.terminateChainInternal(ccmContext, params.sendingChainID);
        ccmProcessedEvent.emit(
          ccmContext.events,
          { ccm: EMPTY_CCM, result: CcmProcessedResult.DISCARDED, code: CcmProcessedCode.INVALID_CCM_DECODING_EXCEPTION },
          [params.sendingChainID, ctx.chainID],
        );
        return undefined;
      }
      const ccmContext = crossChainMessageContext(ctx, ccm, id);
      try {
        validateCcmFormat(ccm);
      } catch {
        this.deps.internal.terminateChainInternal(ccmContext, params.sendingChainID);
        const reported = { ...ccm, params: EMPTY_BYTES };
        this.discarded(ccmContext, params.sendingChainID, reported, CcmProcessedCode.INVALID_CCM_VALIDATION_EXCEPTION);
        return undefined;
      }
      try {
        verifyRoutingRules(ccm, params, ctx.chainID, onMainchain);
      } catch {
        this.deps.internal.terminateChainInternal(ccmContext, params.sendingChainID);
        this.discarded(ccmContext, params.sendingChainID, ccm, CcmProcessedCode.INVALID_CCM_ROUTING_EXCEPTION);
        return undefined;
      }
      ccms.push(ccm);
    }
    return ccms;
  }

  private discarded(ctx: CrossChainMessageContext, sendingChainID: Buffer, ccm: CrossChainMessage, code: number): void {
    ccmProcessedEvent.emit(ctx.events, { ccm, result: CcmProcessedResult.DISCARDED, code }, [sendingChainID, ccm.receivingChainID]);
  }

  /**
   * Processes each message (apply or forward, chosen by `route`) and appends it to the inbox
   * after, so that a message that terminated the chain can still be recovered. A throw here stops
   * the node in lisk-sdk; it makes the block invalid here.
   */
  protected async processMessages(
    ctx: CommandExecuteContext<CrossChainUpdateParams>,
    ccms: readonly CrossChainMessage[],
    route: (ccmContext: CrossChainMessageContext) => Promise<void>,
  ): Promise<void> {
    const { params } = ctx;
    try {
      ctx.contextStore.set(CONTEXT_STORE_KEY_CCM_PROCESSING, true);
      for (let i = 0; i < ccms.length; i += 1) {
        const ccmBytes = params.inboxUpdate.crossChainMessages[i] as Buffer;
        await route(crossChainMessageContext(ctx, ccms[i] as CrossChainMessage, sha256(ccmBytes)));
        appendToInboxTree(ctx, params.sendingChainID, ccmBytes);
      }
    } catch (error) {
      throw new CrossChainUpdatePanicError(error);
    } finally {
      ctx.contextStore.delete(CONTEXT_STORE_KEY_CCM_PROCESSING);
    }
  }

  /** LIP 0053 afterCrossChainMessagesExecution: validators, then certificate, then the partner chain's outbox root. */
  protected afterMessages(ctx: CommandExecuteContext<CrossChainUpdateParams>): void {
    const { params } = ctx;
    const { certificateThreshold } = chainValidatorsStore.getOrThrow(ctx.state, params.sendingChainID);
    if (changesValidators(params, certificateThreshold)) updateValidators(ctx, params);
    if (params.certificate.length > 0) updateCertificate(ctx, params);
    if (!isInboxUpdateEmpty(params.inboxUpdate) && params.certificate.length > 0) updatePartnerChainOutboxRoot(ctx, params);
  }
}

/** LIP 0053 verifyRoutingRules. */
function verifyRoutingRules(ccm: CrossChainMessage, params: CrossChainUpdateParams, ownChainID: Buffer, onMainchain: boolean): void {
  if (onMainchain) {
    if (!ccm.sendingChainID.equals(params.sendingChainID)) throw new ExecutionError('CCM is not from the sending chain.');
    if (ccm.status === CcmStatusCode.CHANNEL_UNAVAILABLE) {
      throw new ExecutionError('CCM status channel unavailable can only be set on the mainchain.');
    }
  } else if (!ownChainID.equals(ccm.receivingChainID)) {
    throw new ExecutionError('CCM is not directed to the sidechain.');
  }
  if (ccm.receivingChainID.equals(ccm.sendingChainID)) throw new ExecutionError('Sending and receiving chains must differ.');
}
