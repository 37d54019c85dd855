/** Codes of cross-chain message processing (LIP 0049; lisk-sdk interoperability/constants.ts and events/ccm_processed.ts). */
import { EMPTY_BYTES } from '../constants.js';
import type { CrossChainMessage } from '../types.js';

/** The status a message carries (lisk-sdk CCMStatusCode). */
export const CcmStatusCode = Object.freeze({
  OK: 0,
  CHANNEL_UNAVAILABLE: 1,
  MODULE_NOT_SUPPORTED: 2,
  CROSS_CHAIN_COMMAND_NOT_SUPPORTED: 3,
  FAILED_CCM: 4,
  RECOVERED: 5,
});

/** `result` of a ccmProcessed event (lisk-sdk CCMProcessedResult). */
export const CcmProcessedResult = Object.freeze({ APPLIED: 0, FORWARDED: 1, BOUNCED: 2, DISCARDED: 3 });

/** `code` of a ccmProcessed event (lisk-sdk CCMProcessedCode). */
export const CcmProcessedCode = Object.freeze({
  SUCCESS: 0,
  CHANNEL_UNAVAILABLE: 1,
  MODULE_NOT_SUPPORTED: 2,
  CROSS_CHAIN_COMMAND_NOT_SUPPORTED: 3,
  FAILED_CCM: 4,
  INVALID_CCM_DECODING_EXCEPTION: 5,
  INVALID_CCM_VALIDATION_EXCEPTION: 6,
  INVALID_CCM_ROUTING_EXCEPTION: 7,
  INVALID_CCM_VERIFY_CCM_EXCEPTION: 8,
  INVALID_CCM_VERIFY_EXCEPTION: 9,
  INVALID_CCM_BEFORE_CCC_EXECUTION_EXCEPTION: 10,
  INVALID_CCM_AFTER_CCC_EXECUTION_EXCEPTION: 11,
  INVALID_CCM_BEFORE_CCC_FORWARDING_EXCEPTION: 12,
});

/** First byte of a message's event topic: `05 ‖ ccmID` (lisk-sdk EVENT_TOPIC_CCM_EXECUTION). */
export const EVENT_TOPIC_CCM_EXECUTION: Buffer = Buffer.from([5]);

/** Set in the block's context store while a CCU's messages are processed (lisk-sdk CONTEXT_STORE_KEY_CCM_PROCESSING). */
export const CONTEXT_STORE_KEY_CCM_PROCESSING = 'CONTEXT_STORE_KEY_CCM_PROCESSING';

export const CROSS_CHAIN_COMMAND_SIDECHAIN_TERMINATED = 'sidechainTerminated';

/** LIP 0045 empty message: reported when a message cannot even be decoded. */
export const EMPTY_CCM: CrossChainMessage = Object.freeze({
  module: '',
  crossChainCommand: '',
  nonce: 0n,
  fee: 0n,
  sendingChainID: EMPTY_BYTES,
  receivingChainID: EMPTY_BYTES,
  params: EMPTY_BYTES,
  status: 0,
});

/** The event topic of a message, from its encoded bytes' hash. */
export function ccmEventTopic(ccmID: Buffer): Buffer {
  return Buffer.concat([EVENT_TOPIC_CCM_EXECUTION, ccmID]);
}
