/** The params of a cross-chain update (LIP 0053) as decoded with crossChainUpdateParamsSchema. */
import type { ActiveValidator } from '../types.js';

export interface ActiveValidatorsUpdate {
  blsKeysUpdate: Buffer[];
  bftWeightsUpdate: bigint[];
  bftWeightsUpdateBitmap: Buffer;
}

export interface OutboxRootWitness {
  bitmap: Buffer;
  siblingHashes: Buffer[];
}

export interface InboxUpdate {
  crossChainMessages: Buffer[];
  messageWitnessHashes: Buffer[];
  outboxRootWitness: OutboxRootWitness;
}

export interface CrossChainUpdateParams {
  sendingChainID: Buffer;
  certificate: Buffer;
  activeValidatorsUpdate: ActiveValidatorsUpdate;
  certificateThreshold: bigint;
  inboxUpdate: InboxUpdate;
}

/** An inbox update whose every field has its default value (lisk-sdk isInboxUpdateEmpty). */
export function isInboxUpdateEmpty(inboxUpdate: InboxUpdate): boolean {
  return (
    inboxUpdate.crossChainMessages.length === 0 &&
    inboxUpdate.messageWitnessHashes.length === 0 &&
    inboxUpdate.outboxRootWitness.siblingHashes.length === 0 &&
    inboxUpdate.outboxRootWitness.bitmap.length === 0
  );
}

/** lisk-sdk emptyActiveValidatorsUpdate: no keys, no weights, no bitmap. */
export function isActiveValidatorsUpdateEmpty(update: ActiveValidatorsUpdate): boolean {
  return update.blsKeysUpdate.length === 0 && update.bftWeightsUpdate.length === 0 && update.bftWeightsUpdateBitmap.length === 0;
}

/**
 * Whether a CCU changes the stored validators of its sending chain: a non-empty validators update
 * or a certificate threshold different from the stored one (lisk-sdk tests the same pair in
 * verifyCommon and afterCrossChainMessagesExecution).
 */
export function changesValidators(params: CrossChainUpdateParams, storedThreshold: bigint): boolean {
  return !isActiveValidatorsUpdateEmpty(params.activeValidatorsUpdate) || params.certificateThreshold !== storedThreshold;
}

export type { ActiveValidator };
