/**
 * Inbox updates of cross-chain updates (LIP 0053 verifyOutboxRootWitness,
 * verifyPartnerChainOutboxRoot and the inbox writes; lisk-sdk base_interoperability_internal_methods.ts
 * and stores/channel_data.ts updatePartnerChainOutboxRoot).
 *
 * The messages of an update are appended to the channel's inbox tree (leaf value H(ccm bytes)),
 * and the message witness completes that tree to the sending chain's outbox root. With a
 * certificate, that root must be proven in the certified state root, as the sending chain's
 * outbox root entry for this chain; without one it must equal the root proven last time.
 */
import { codec } from '../../../codec/index.js';
import { sha256 } from '../../../crypto/sha256.js';
import { ExecutionError } from '../../../errors.js';
import { appendToMerkleRoot, calculateRootFromRightWitness, STATE_KEY_LENGTH, verifyInclusionProof } from '../../../merkle/index.js';
import type { MethodContext, ReadContext } from '../../base/index.js';
import { EMPTY_BYTES } from '../constants.js';
import { invalidOutboxRootVerificationEvent, invalidSMTVerificationEvent } from '../events.js';
import { channelDataStore, outboxRootSchema, outboxRootStore, ownChainAccountStore } from '../stores.js';
import { decodeCertificate } from './certificate.js';
import type { CrossChainUpdateParams } from './params.js';

/** LIP 0053 verifyOutboxRootWitness: bitmap and sibling hashes set together, and exactly when a certificate is. */
export function verifyOutboxRootWitness(params: CrossChainUpdateParams): void {
  const { bitmap, siblingHashes } = params.inboxUpdate.outboxRootWitness;
  if (bitmap.length === 0 && siblingHashes.length > 0) {
    throw new ExecutionError('The bitmap in the outbox root witness must be non-empty if the sibling hashes are non-empty.');
  }
  if (bitmap.length !== 0 && siblingHashes.length === 0) {
    throw new ExecutionError('The sibling hashes in the outbox root witness must be non-empty if the bitmap is non-empty.');
  }
  if (bitmap.length === 0 && params.certificate.length > 0) {
    throw new ExecutionError('The outbox root witness must be non-empty to authenticate the new partnerChainOutboxRoot.');
  }
  if (bitmap.length !== 0 && params.certificate.length === 0) {
    throw new ExecutionError('The outbox root witness can be non-empty only if the certificate is non-empty.');
  }
}

/** The sending chain's outbox root implied by the update: the inbox with the messages appended, completed by the witness. */
export function impliedPartnerOutboxRoot(ctx: ReadContext, params: CrossChainUpdateParams): Buffer {
  const channel = channelDataStore.getOrThrow(ctx.state, params.sendingChainID);
  let appendPath: readonly Buffer[] = channel.inbox.appendPath;
  let size = channel.inbox.size;
  for (const ccmBytes of params.inboxUpdate.crossChainMessages) {
    ({ appendPath, size } = appendToMerkleRoot(sha256(ccmBytes), appendPath, size));
  }
  return calculateRootFromRightWitness(size, appendPath, params.inboxUpdate.messageWitnessHashes);
}

/**
 * LIP 0053 verifyPartnerChainOutboxRoot. Each failure leaves its non-revertible event
 * (invalidOutboxRootVerification, or invalidSMTVerification for a bad state proof) and fails
 * the transaction.
 */
export function verifyPartnerChainOutboxRoot(ctx: MethodContext, params: CrossChainUpdateParams): void {
  const channel = channelDataStore.getOrThrow(ctx.state, params.sendingChainID);
  const newInboxRoot = impliedPartnerOutboxRoot(ctx, params);

  if (params.certificate.length === 0) {
    if (!newInboxRoot.equals(channel.partnerChainOutboxRoot)) {
      invalidOutboxRootVerificationEvent.emit(
        ctx.events,
        { inboxRoot: newInboxRoot, partnerChainOutboxRoot: channel.partnerChainOutboxRoot },
        [params.sendingChainID],
        true,
      );
      throw new ExecutionError('Inbox root does not match partner chain outbox root.');
    }
    return;
  }

  const ownChainAccount = ownChainAccountStore.getOrThrow(ctx.state, EMPTY_BYTES);
  // The SMT key of the partner chain's outbox root entry for this chain (LIP 0040 state key).
  const outboxKey = Buffer.concat([outboxRootStore.prefix, sha256(ownChainAccount.chainID)]);
  const { bitmap, siblingHashes } = params.inboxUpdate.outboxRootWitness;
  const proof = {
    siblingHashes,
    queries: [{ key: outboxKey, value: sha256(codec.encode(outboxRootSchema, { root: newInboxRoot })), bitmap }],
  };
  const certificate = decodeCertificate(params.certificate);
  if (!verifyInclusionProof([outboxKey], proof, certificate.stateRoot, STATE_KEY_LENGTH)) {
    // lisk-sdk adds this one without topics and revertible: the failed transaction drops it.
    invalidSMTVerificationEvent.emit(ctx.events, {});
    throw new ExecutionError('Invalid inclusion proof for inbox update.');
  }
}

/** Appends one received message to the channel's inbox tree (LIP 0053 appendToInboxTree). */
export function appendToInboxTree(ctx: MethodContext, chainID: Buffer, ccmBytes: Buffer): void {
  const channel = channelDataStore.getOrThrow(ctx.state, chainID);
  const { root, appendPath, size } = appendToMerkleRoot(sha256(ccmBytes), channel.inbox.appendPath, channel.inbox.size);
  channelDataStore.set(ctx.state, chainID, { ...channel, inbox: { root, appendPath: [...appendPath], size } });
}

/** Stores the partner chain's outbox root: the (updated) inbox completed by the message witness. */
export function updatePartnerChainOutboxRoot(ctx: MethodContext, params: CrossChainUpdateParams): void {
  const channel = channelDataStore.getOrThrow(ctx.state, params.sendingChainID);
  const partnerChainOutboxRoot = calculateRootFromRightWitness(
    channel.inbox.size,
    channel.inbox.appendPath,
    params.inboxUpdate.messageWitnessHashes,
  );
  channelDataStore.set(ctx.state, params.sendingChainID, { ...channel, partnerChainOutboxRoot });
}
