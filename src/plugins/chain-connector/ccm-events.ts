/**
 * Which messages one block of the sending chain added to the outbox towards the receiving
 * chain, read from the block's events: `ccmSendSuccess` (sent, bounced) and `ccmProcessed` with
 * the result "forwarded" (the mainchain relaying a message between two sidechains). A sidechain
 * has a single channel, to the mainchain, so every message it sends counts; the mainchain keeps
 * one outbox per chain and only those addressed to the receiving chain count.
 */
import type { EventProps } from '../../chain/event.js';
import { codec } from '../../codec/index.js';
import type { CrossChainMessage } from '../../modules/base/cross-chain.js';
import { INTEROPERABILITY_MODULE_NAME } from '../../modules/interoperability/constants.js';
import {
  type CcmProcessedData,
  type CcmSendSuccessData,
  ccmProcessedSchema,
  ccmSendSuccessSchema,
} from '../../modules/interoperability/events.js';

/** lisk-sdk CCMProcessedResult.FORWARDED. */
const CCM_RESULT_FORWARDED = 1;

/** The mainchain's ID on the network of `chainID`: its first byte, then zeros (LIP 0037). */
export function mainchainIDOf(chainID: Buffer): Buffer {
  return Buffer.from([chainID[0] ?? 0, 0, 0, 0]);
}

export function isMainchainID(chainID: Buffer): boolean {
  return mainchainIDOf(chainID).equals(chainID);
}

/** The messages of `events` (one block, in event order) that went into the outbox towards `receivingChainID`. */
export function outboxMessagesOf(events: readonly EventProps[], ownChainID: Buffer, receivingChainID: Buffer): CrossChainMessage[] {
  const toMainchain = isMainchainID(receivingChainID) && !isMainchainID(ownChainID);
  const messages: CrossChainMessage[] = [];
  for (const event of events) {
    if (event.module !== INTEROPERABILITY_MODULE_NAME) continue;
    let ccm: CrossChainMessage | undefined;
    if (event.name === 'ccmSendSuccess') {
      ccm = codec.decode<CcmSendSuccessData>(ccmSendSuccessSchema, event.data).ccm;
    } else if (event.name === 'ccmProcessed') {
      const processed = codec.decode<CcmProcessedData>(ccmProcessedSchema, event.data);
      if (processed.result === CCM_RESULT_FORWARDED) ccm = processed.ccm;
    }
    if (ccm !== undefined && (toMainchain || ccm.receivingChainID.equals(receivingChainID))) messages.push(ccm);
  }
  return messages;
}
