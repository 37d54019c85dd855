/**
 * Sending a cross-chain message (LIP 0045 send / sendInternal; lisk-sdk
 * BaseInteroperabilityInternalMethod.sendInternal). Each refusal first emits a non-revertible
 * ccmSentFailed event (with the message's params emptied) and then throws, so the calling
 * command fails but the failure stays visible in the block's events.
 */
import { codec, validate } from '../../codec/index.js';
import { sha256 } from '../../crypto/sha256.js';
import type { MethodContext } from '../base/index.js';
import { CcmSentFailedCode, ChainStatus, EMPTY_BYTES, MAX_CCM_SIZE } from './constants.js';
import type { InteroperabilityTokenMethod } from './dependencies.js';
import { ccmSendSuccessEvent, ccmSentFailedEvent } from './events.js';
import { isLive } from './liveness.js';
import { addToOutbox } from './outbox.js';
import { ccmSchema } from './schemas.js';
import { chainAccountStore, ownChainAccountStore } from './stores.js';
import type { CrossChainMessage } from './types.js';
import { getMainchainID } from './utils.js';
import { ExecutionError } from '../../errors.js';

/** Module and cross-chain command names of a CCM: letters and digits only (lisk-sdk NAME_REGEX). */
const CCM_NAME_PATTERN = /^[a-zA-Z0-9]*$/;

export interface SendRequest {
  /** Who pays the message fee (EMPTY_FEE_ADDRESS for messages the protocol sends itself). */
  readonly sendingAddress: Buffer;
  readonly module: string;
  readonly crossChainCommand: string;
  readonly receivingChainID: Buffer;
  readonly fee: bigint;
  readonly status: number;
  readonly params: Buffer;
  /** Block timestamp; required on the mainchain (liveness of the receiving chain). */
  readonly timestamp?: number | undefined;
}

/** LIP 0049 validateFormat: schema-valid, alphanumeric names, at most MAX_CCM_SIZE bytes encoded. */
export function validateCcmFormat(ccm: CrossChainMessage): void {
  validate(ccmSchema, ccm);
  const encoded = codec.encode(ccmSchema, ccm);
  for (const field of ['module', 'crossChainCommand'] as const) {
    if (!CCM_NAME_PATTERN.test(ccm[field])) {
      throw new ExecutionError(`Cross-chain message ${field} name must be alphanumeric.`);
    }
  }
  if (encoded.length > MAX_CCM_SIZE) {
    throw new ExecutionError(`Cross-chain message size is larger than ${MAX_CCM_SIZE}.`);
  }
}

/** The ID of a CCM: H(encoded ccm). */
export function ccmID(ccm: CrossChainMessage): Buffer {
  return sha256(codec.encode(ccmSchema, ccm));
}

/** LIP 0045 sendInternal: builds the CCM with the own chain's nonce and puts it in the partner chain's outbox. */
export function sendInternal(ctx: MethodContext, token: InteroperabilityTokenMethod, request: SendRequest): void {
  const ownChainAccount = ownChainAccountStore.getOrThrow(ctx.state, EMPTY_BYTES);
  const ccm: CrossChainMessage = {
    module: request.module,
    crossChainCommand: request.crossChainCommand,
    fee: request.fee,
    nonce: ownChainAccount.nonce,
    params: request.params,
    receivingChainID: request.receivingChainID,
    sendingChainID: ownChainAccount.chainID,
    status: request.status,
  };
  const refuse = (code: number, message: string): never => {
    ccmSentFailedEvent.emit(ctx.events, { ccm: { ...ccm, params: EMPTY_BYTES }, code }, [], true);
    throw new ExecutionError(message);
  };

  try {
    validateCcmFormat(ccm);
  } catch {
    refuse(CcmSentFailedCode.INVALID_FORMAT, 'Invalid CCM format.');
  }

  if (request.receivingChainID.equals(ownChainAccount.chainID)) {
    refuse(CcmSentFailedCode.INVALID_RECEIVING_CHAIN, 'Sending chain cannot be the receiving chain.');
  }

  const mainchainID = getMainchainID(ownChainAccount.chainID);
  const onMainchain = ownChainAccount.chainID.equals(mainchainID);
  // lisk-sdk tests the timestamp for truthiness, so 0 counts as missing too.
  if (onMainchain && !request.timestamp) {
    throw new ExecutionError('Timestamp must be provided in mainchain context.');
  }
  if (!isLive(ctx, request.receivingChainID, onMainchain ? request.timestamp : undefined)) {
    refuse(CcmSentFailedCode.CHANNEL_UNAVAILABLE, 'Receiving chain is not live.');
  }

  const receivingChainAccount = chainAccountStore.get(ctx.state, request.receivingChainID);

  if (request.fee > 0n) {
    try {
      token.payMessageFee(ctx, request.sendingAddress, ccm.receivingChainID, request.fee);
    } catch {
      refuse(CcmSentFailedCode.MESSAGE_FEE_EXCEPTION, 'Failed to pay message fee.');
    }
  }

  // A sidechain without a direct channel to the receiving chain routes through the mainchain.
  const partnerChainID = onMainchain || receivingChainAccount !== undefined ? request.receivingChainID : mainchainID;

  if (receivingChainAccount !== undefined && receivingChainAccount.status !== ChainStatus.ACTIVE) {
    refuse(CcmSentFailedCode.CHANNEL_UNAVAILABLE, 'Receiving chain is not active.');
  }

  const id = ccmID(ccm);
  addToOutbox(ctx, partnerChainID, ccm);
  ownChainAccountStore.set(ctx.state, EMPTY_BYTES, { ...ownChainAccount, nonce: ownChainAccount.nonce + 1n });
  ccmSendSuccessEvent.emit(ctx.events, { ccm }, [ccm.sendingChainID, ccm.receivingChainID, id]);
}
