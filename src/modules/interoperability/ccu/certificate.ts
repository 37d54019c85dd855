/**
 * Certificates carried by cross-chain updates (LIP 0061 schema and aggregate signature; LIP 0053
 * verifyCertificate / verifyCertificateSignature / updateCertificate; lisk-sdk
 * base_interoperability_internal_methods.ts and engine/consensus/certificate_generation).
 */
import { codec, objectSchema, validate, type Schema } from '../../../codec/index.js';
import { MESSAGE_TAG_CERTIFICATE, verifyBlsCheck, weightedAggSigCheck, type BlsCheck } from '../../../crypto/index.js';
import { ExecutionError } from '../../../errors.js';
import type { StateReader } from '../../../state/state-view.js';
import type { MethodContext, ReadContext } from '../../base/index.js';
import { HASH_LENGTH, LIVENESS_LIMIT } from '../constants.js';
import { chainAccountUpdatedEvent, invalidCertificateSignatureEvent } from '../events.js';
import { chainAccountStore, chainValidatorsStore } from '../stores.js';
import type { ChainAccount } from '../types.js';
import { changesValidators, type CrossChainUpdateParams } from './params.js';

const BLS_SIGNATURE_LENGTH = 96;
/** lisk-sdk MAX_LENGTH_AGGREGATION_BITS: one bit per validator, at most MAX_NUM_VALIDATORS. */
const MAX_LENGTH_AGGREGATION_BITS = 25;
const hash32 = { dataType: 'bytes', minLength: HASH_LENGTH, maxLength: HASH_LENGTH } as const;

const unsignedCertificateProperties = {
  blockID: { ...hash32, fieldNumber: 1 },
  height: { dataType: 'uint32', fieldNumber: 2 },
  timestamp: { dataType: 'uint32', fieldNumber: 3 },
  stateRoot: { ...hash32, fieldNumber: 4 },
  validatorsHash: { ...hash32, fieldNumber: 5 },
} as const;

/** The signed part of a certificate (LIP 0061). */
export const unsignedCertificateSchema: Schema = objectSchema('/consensus/unsignedCertificate', unsignedCertificateProperties);

/** A certificate (LIP 0061): a positive timestamp, the aggregation bitmap and the aggregate signature. */
export const certificateSchema: Schema = objectSchema('/consensus/certificate', {
  ...unsignedCertificateProperties,
  timestamp: { minimum: 1, dataType: 'uint32', fieldNumber: 3 },
  aggregationBits: { dataType: 'bytes', fieldNumber: 6, maxLength: MAX_LENGTH_AGGREGATION_BITS },
  signature: { dataType: 'bytes', minLength: BLS_SIGNATURE_LENGTH, maxLength: BLS_SIGNATURE_LENGTH, fieldNumber: 7 },
});

export interface Certificate {
  blockID: Buffer;
  height: number;
  timestamp: number;
  stateRoot: Buffer;
  validatorsHash: Buffer;
  aggregationBits: Buffer;
  signature: Buffer;
}

/** Decodes and validates a certificate; throws on bytes that are not one (as lisk-sdk does at every use). */
export function decodeCertificate(bytes: Buffer): Certificate {
  const certificate = codec.decode<Certificate>(certificateSchema, bytes);
  validate(certificateSchema, certificate);
  return certificate;
}

/**
 * LIP 0053 verifyCertificate (pool and block verification): a newer height than the last
 * certificate, older than the including block, and a changed validators hash only together with
 * a validators update.
 */
export function verifyCertificate(ctx: ReadContext, params: CrossChainUpdateParams, blockTimestamp: number): void {
  const certificate = decodeCertificate(params.certificate);
  const chainAccount = chainAccountStore.getOrThrow(ctx.state, params.sendingChainID);
  if (certificate.height <= chainAccount.lastCertificate.height) {
    throw new ExecutionError('Certificate height is not greater than last certificate height.');
  }
  if (certificate.timestamp >= blockTimestamp) {
    throw new ExecutionError('Certificate timestamp is not smaller than timestamp of the block including the CCU.');
  }
  const validators = chainValidatorsStore.getOrThrow(ctx.state, params.sendingChainID);
  if (
    !certificate.validatorsHash.equals(chainAccount.lastCertificate.validatorsHash) &&
    !changesValidators(params, validators.certificateThreshold)
  ) {
    throw new ExecutionError('Certifying an update to the validators hash requires an active validators update.');
  }
}

/**
 * Where the certificate's pairing check gets its answer. One costs a few milliseconds, so a node
 * hands the cross-chain update commands a source that computed it ahead of the block, in its
 * worker pool; every answer equals `verifyBlsCheck`'s, whoever computed it.
 */
export interface CertificateSignatureChecks {
  /** During execution (synchronous): the answer computed ahead for `check`, or computed here. */
  check(check: BlsCheck): boolean;
}

/** Every check on the calling thread: the commands' default, and a node without worker threads. */
export const CERTIFICATE_CHECKS_ON_THIS_THREAD: CertificateSignatureChecks = { check: verifyBlsCheck };

/**
 * The pairing part of LIP 0061 verifyAggregateCertificateSignature for a CCU's certificate,
 * against the stored validators of the sending chain (sorted by BLS key) and their certificate
 * threshold; undefined when the bitmap or the signers' weight already fail it. Throws when the
 * certificate does not decode or the sending chain has no validators, as execution does.
 */
export function certificateSignatureCheck(state: StateReader, params: CrossChainUpdateParams): BlsCheck | undefined {
  const certificate = decodeCertificate(params.certificate);
  const { activeValidators, certificateThreshold } = chainValidatorsStore.getOrThrow(state, params.sendingChainID);
  const sorted = [...activeValidators].sort((a, b) => a.blsKey.compare(b.blsKey));
  return weightedAggSigCheck(
    sorted.map((validator) => validator.blsKey),
    certificate.aggregationBits,
    certificate.signature,
    MESSAGE_TAG_CERTIFICATE,
    params.sendingChainID,
    codec.encode(unsignedCertificateSchema, certificate),
    sorted.map((validator) => validator.bftWeight),
    certificateThreshold,
  );
}

/**
 * LIP 0061 verifyAggregateCertificateSignature. Runs at execution, not in the transaction pool,
 * so that a relayer cannot make the pool do pairings for free; a failure leaves a non-revertible
 * invalidCertificateSignature event and fails the transaction. `checks` answers the pairing.
 */
export function verifyCertificateSignature(
  ctx: MethodContext,
  params: CrossChainUpdateParams,
  checks: CertificateSignatureChecks = CERTIFICATE_CHECKS_ON_THIS_THREAD,
): void {
  const check = certificateSignatureCheck(ctx.state, params);
  if (check === undefined || !checks.check(check)) {
    invalidCertificateSignatureEvent.emit(ctx.events, {}, [params.sendingChainID], true);
    throw new ExecutionError('Certificate is not a valid aggregate signature.');
  }
}

/** LIP 0053 updateCertificate: the chain account takes the certificate's height, timestamp and roots. */
export function updateCertificate(ctx: MethodContext, params: CrossChainUpdateParams): void {
  const certificate = decodeCertificate(params.certificate);
  const chainAccount = chainAccountStore.getOrThrow(ctx.state, params.sendingChainID);
  const updated: ChainAccount = {
    ...chainAccount,
    lastCertificate: {
      height: certificate.height,
      stateRoot: certificate.stateRoot,
      timestamp: certificate.timestamp,
      validatorsHash: certificate.validatorsHash,
    },
  };
  chainAccountStore.set(ctx.state, params.sendingChainID, updated);
  chainAccountUpdatedEvent.emit(ctx.events, updated, [params.sendingChainID]);
}

/**
 * lisk-sdk verifyLivenessConditionForRegisteredChains: the first CCU with messages from a chain
 * still REGISTERED must carry a certificate at most LIVENESS_LIMIT / 2 seconds old.
 */
export function verifyLivenessConditionForRegisteredChains(blockTimestamp: number, certificateBytes: Buffer): void {
  const certificate = decodeCertificate(certificateBytes);
  const limitSeconds = LIVENESS_LIMIT / 2;
  if (blockTimestamp - certificate.timestamp > limitSeconds) {
    throw new ExecutionError(
      `The first CCU with a non-empty inbox update cannot contain a certificate older than ${limitSeconds} seconds.`,
    );
  }
}
