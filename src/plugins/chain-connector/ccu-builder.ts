/**
 * Building the params of a cross-chain update (LIP 0053 "Cross-chain update transaction
 * properties"; the choices of lisk-sdk v6.1.0
 * framework-plugins/lisk-framework-chain-connector-plugin/src/{certificate_generation,
 * active_validators_update,inbox_update}.ts) from what the relayer recorded about its own chain.
 * Pure functions: no RPC, no store, so the same code runs in the plugin and against a recorded
 * chain in the tests.
 *
 * Where this differs from the 0.2.0 relayer on purpose: which messages a CCU carries is decided
 * by each message's position in the sending chain's outbox compared with the partner's inbox
 * size, never by "the nonce of the last message sent". 0.2.0 skips only the one message whose
 * nonce equals the last sent one, so when a block holds several messages for the partner, the
 * earlier ones of that block are sent again and the partner rejects that CCU (and every later
 * CCU carrying messages, as its inbox never moves on).
 */
import type { AggregateCommit, BlockHeader } from '../../chain/block-header.js';
import { codec, objectSchema, type Schema } from '../../codec/index.js';
import { isKeySelected } from '../../crypto/bls-aggregate-signature.js';
import { unsignedCertificateSchema } from '../../engine/consensus/aggregate-commit.js';
import { calculateRightWitness } from '../../merkle/index.js';
import type { CrossChainMessage } from '../../modules/base/cross-chain.js';
import { ccmSchema } from '../../modules/interoperability/schemas.js';

/** LIP 0061 certificate: the unsigned certificate and the aggregate signature of its signers. */
export const certificateSchema: Schema = objectSchema('/consensus/certificate', {
  ...(unsignedCertificateSchema.properties as Record<string, Record<string, unknown>>),
  timestamp: { dataType: 'uint32', fieldNumber: 3, minimum: 1 },
  aggregationBits: { dataType: 'bytes', fieldNumber: 6, maxLength: 25 },
  signature: { dataType: 'bytes', fieldNumber: 7, minLength: 96, maxLength: 96 },
});

export interface Certificate {
  readonly blockID: Buffer;
  readonly height: number;
  readonly timestamp: number;
  readonly stateRoot: Buffer;
  readonly validatorsHash: Buffer;
  readonly aggregationBits: Buffer;
  readonly signature: Buffer;
}

/** The receiving chain's record of the sending chain's last certificate (its chain account). */
export interface LastCertificate {
  readonly height: number;
  readonly timestamp: number;
  readonly stateRoot: Buffer;
  readonly validatorsHash: Buffer;
}

export interface ActiveValidator {
  readonly blsKey: Buffer;
  readonly bftWeight: bigint;
}

/** The BFT validators and certificate threshold behind one validatorsHash (its preimage). */
export interface ValidatorsData {
  readonly certificateThreshold: bigint;
  readonly validators: readonly (ActiveValidator & { readonly address: Buffer })[];
  readonly validatorsHash: Buffer;
}

export interface OutboxRootWitness {
  readonly bitmap: Buffer;
  readonly siblingHashes: readonly Buffer[];
}

/**
 * The messages one block of the sending chain added to the outbox towards the receiving chain,
 * with the outbox size after that block and the inclusion proof of the outbox root in that
 * block's state root.
 */
export interface CcmsAtHeight {
  readonly ccms: readonly CrossChainMessage[];
  readonly height: number;
  readonly inclusionProof: OutboxRootWitness;
  readonly outboxSize: number;
  /**
   * True when the relayer handled the block after the chain had moved past it (while syncing):
   * the state then proved the outbox root of a later block, so this height's proof is unknown.
   */
  readonly unproven?: boolean;
}

export interface ActiveValidatorsUpdate {
  readonly blsKeysUpdate: readonly Buffer[];
  readonly bftWeightsUpdate: readonly bigint[];
  readonly bftWeightsUpdateBitmap: Buffer;
}

/** The params of submitMainchainCrossChainUpdate / submitSidechainCrossChainUpdate. */
export interface CcuParams {
  readonly sendingChainID: Buffer;
  readonly certificate: Buffer;
  readonly activeValidatorsUpdate: ActiveValidatorsUpdate;
  readonly certificateThreshold: bigint;
  readonly inboxUpdate: {
    readonly crossChainMessages: readonly Buffer[];
    readonly messageWitnessHashes: readonly Buffer[];
    readonly outboxRootWitness: OutboxRootWitness;
  };
}

/** The last message a CCU carries and the height of the block that sent it. */
export interface LastSentCcm {
  readonly ccm: CrossChainMessage;
  readonly height: number;
}

const EMPTY = Buffer.alloc(0);
const EMPTY_WITNESS: OutboxRootWitness = { bitmap: EMPTY, siblingHashes: [] };

export function certificateFromAggregateCommit(commit: AggregateCommit, header: BlockHeader): Certificate {
  return {
    blockID: header.id,
    height: header.height,
    timestamp: header.timestamp,
    stateRoot: header.stateRoot,
    validatorsHash: header.validatorsHash,
    aggregationBits: commit.aggregationBits,
    signature: commit.certificateSignature,
  };
}

export function encodeCertificate(certificate: Certificate): Buffer {
  return codec.encode(certificateSchema, certificate);
}

/** What the certificate search reads. */
export interface CertificateSources {
  readonly lastCertificate: LastCertificate;
  /** The sending chain's maxHeightCertified (consensus_getBFTHeights). */
  readonly maxHeightCertified: number;
  /** The height from which the receiving chain knows the sending chain (config `registrationHeight`). */
  readonly registrationHeight: number;
  readonly aggregateCommits: readonly AggregateCommit[];
  headerAt(height: number): BlockHeader | undefined;
  validatorsData(validatorsHash: Buffer): ValidatorsData | undefined;
}

/**
 * The certificate the next CCU carries, or undefined when no recorded aggregate commit is newer
 * than the last certificate and acceptable to the receiving chain. The first certificate after
 * registration is the oldest commit at or above the registration height; later ones are the
 * newest commit whose signers the receiving chain can still weigh with the validators it knows
 * (the chain of trust, LIP 0053).
 */
export function findNextCertificate(sources: CertificateSources): Certificate | undefined {
  const { lastCertificate, aggregateCommits } = sources;
  if (aggregateCommits.length === 0) return undefined;
  if (lastCertificate.height === 0) {
    const oldestFirst = [...aggregateCommits].sort((a, b) => a.height - b.height);
    for (const commit of oldestFirst) {
      if (commit.height < sources.registrationHeight) continue;
      const header = sources.headerAt(commit.height);
      if (header !== undefined) return certificateFromAggregateCommit(commit, header);
    }
    return undefined;
  }
  const lastHeader = sources.headerAt(lastCertificate.height);
  if (lastHeader === undefined) throw new Error(`No block header recorded at the last certified height ${lastCertificate.height}.`);
  const trusted = sources.validatorsData(lastHeader.validatorsHash);
  if (trusted === undefined) {
    throw new Error(`No validators recorded for validatorsHash ${lastHeader.validatorsHash.toString('hex')} of the last certified height.`);
  }
  const byHeight = new Map(aggregateCommits.map((commit) => [commit.height, commit]));
  for (let height = sources.maxHeightCertified; height > lastCertificate.height; height -= 1) {
    const commit = byHeight.get(height);
    if (commit === undefined) continue;
    if (!keepsChainOfTrust(commit, lastHeader.validatorsHash, trusted, sources)) continue;
    const header = sources.headerAt(height);
    if (header === undefined) throw new Error(`No block header recorded at height ${height} of an aggregate commit.`);
    return certificateFromAggregateCommit(commit, header);
  }
  return undefined;
}

/**
 * Whether the receiving chain, which knows the validators of the last certificate, accepts the
 * signers of `commit`: they are the validators of the block before it, and when those changed,
 * every signer must be known to it and their known weights must reach the known threshold.
 */
function keepsChainOfTrust(commit: AggregateCommit, trustedHash: Buffer, trusted: ValidatorsData, sources: CertificateSources): boolean {
  const previous = sources.headerAt(commit.height - 1);
  if (previous === undefined) throw new Error(`No block header recorded at height ${commit.height - 1}, before an aggregate commit.`);
  if (previous.validatorsHash.equals(trustedHash)) return true;
  const signersData = sources.validatorsData(previous.validatorsHash);
  if (signersData === undefined) throw new Error(`No validators recorded for validatorsHash ${previous.validatorsHash.toString('hex')}.`);
  const trustedWeights = new Map(trusted.validators.map((validator) => [validator.blsKey.toString('hex'), validator.bftWeight]));
  const signers = sortedByBlsKey(signersData.validators);
  let weight = 0n;
  for (let index = 0; index < signers.length; index += 1) {
    if (!isKeySelected(commit.aggregationBits, index)) continue;
    const known = trustedWeights.get((signers[index] as ActiveValidator).blsKey.toString('hex'));
    if (known === undefined) return false;
    weight += known;
  }
  return weight >= trusted.certificateThreshold;
}

function sortedByBlsKey<T extends ActiveValidator>(validators: readonly T[]): T[] {
  return [...validators].sort((a, b) => Buffer.compare(a.blsKey, b.blsKey));
}

/**
 * LIP 0053 active validators update from the validators the receiving chain knows to the new
 * ones: new BLS keys, changed weights (a validator that left gets weight 0), and a bitmap over
 * the sorted union of both key sets, big-endian, one bit per key that changed.
 */
export function activeValidatorsUpdate(current: readonly ActiveValidator[], next: readonly ActiveValidator[]): ActiveValidatorsUpdate {
  const currentWeights = new Map(current.map((validator) => [validator.blsKey.toString('hex'), validator.bftWeight]));
  const nextKeys = new Set(next.map((validator) => validator.blsKey.toString('hex')));
  const changed: ActiveValidator[] = [];
  const newKeys: Buffer[] = [];
  for (const validator of next) {
    const weight = currentWeights.get(validator.blsKey.toString('hex'));
    if (weight === undefined) newKeys.push(validator.blsKey);
    if (weight !== validator.bftWeight) changed.push(validator);
  }
  for (const validator of current) {
    if (!nextKeys.has(validator.blsKey.toString('hex'))) changed.push({ blsKey: validator.blsKey, bftWeight: 0n });
  }
  const union = [...new Set([...currentWeights.keys(), ...nextKeys])].sort();
  const bitmap = Buffer.alloc(Math.ceil(union.length / 8));
  for (const validator of changed) {
    const index = union.indexOf(validator.blsKey.toString('hex'));
    bitmap[bitmap.length - 1 - (index >> 3)]! |= 1 << (index & 7);
  }
  const changedSorted = sortedByBlsKey(changed);
  return {
    blsKeysUpdate: [...newKeys].sort(Buffer.compare),
    bftWeightsUpdate: changedSorted.map((validator) => validator.bftWeight),
    bftWeightsUpdateBitmap: bitmap,
  };
}

export interface InboxUpdateChoice {
  readonly crossChainMessages: Buffer[];
  readonly messageWitnessHashes: Buffer[];
  readonly lastCcm: LastSentCcm | undefined;
}

/**
 * The messages of the next inbox update: those the receiving chain has not received yet
 * (position in the outbox at or above its inbox size) and that the certified outbox root covers
 * (sent at or below `certifiedHeight`), in outbox order, as many as fit under `maxCCUSize`
 * bytes. When some are left out, the right witness of the rest lets the receiving chain check
 * the outbox root all the same.
 */
export function chooseInboxMessages(
  records: readonly CcmsAtHeight[],
  inboxSize: number,
  certifiedHeight: number,
  maxCCUSize: number,
): InboxUpdateChoice {
  const pending: { bytes: Buffer; ccm: CrossChainMessage; height: number }[] = [];
  for (const record of [...records].sort((a, b) => a.height - b.height)) {
    if (record.height > certifiedHeight) break;
    const firstPosition = record.outboxSize - record.ccms.length;
    record.ccms.forEach((ccm, offset) => {
      if (firstPosition + offset >= inboxSize) pending.push({ bytes: codec.encode(ccmSchema, ccm), ccm, height: record.height });
    });
  }
  let size = 0;
  let included = 0;
  for (const message of pending) {
    size += message.bytes.length;
    if (size >= maxCCUSize) break;
    included += 1;
  }
  if (included === 0) return { crossChainMessages: [], messageWitnessHashes: [], lastCcm: undefined };
  const last = pending[included - 1] as (typeof pending)[number];
  const rest = pending.slice(included).map((message) => message.bytes);
  return {
    crossChainMessages: pending.slice(0, included).map((message) => message.bytes),
    messageWitnessHashes: rest.length === 0 ? [] : calculateRightWitness(inboxSize + included, rest),
    lastCcm: { ccm: last.ccm, height: last.height },
  };
}

/** Everything one CCU is built from. */
export interface CcuSources extends CertificateSources {
  readonly sendingChainID: Buffer;
  readonly ccmRecords: readonly CcmsAtHeight[];
  /** The receiving chain's inbox size for the sending chain (its channel). */
  readonly inboxSizeOnReceivingChain: number;
  readonly maxCCUSize: number;
}

export interface BuiltCcu {
  readonly params: CcuParams;
  readonly certificate: Certificate | undefined;
  readonly lastCcm: LastSentCcm | undefined;
}

export type CcuOutcome = { readonly built: BuiltCcu } | { readonly skipped: string };

/**
 * The next CCU (LIP 0053): a new certificate with the validators update and threshold it needs,
 * or, without one, only the messages still pending under the last certificate. Skipped when
 * there is neither a new certificate nor a pending message, and before the first certificate.
 */
export function buildCcu(sources: CcuSources): CcuOutcome {
  const { lastCertificate } = sources;
  const certificate = findNextCertificate(sources);
  if (certificate === undefined && lastCertificate.height === 0) return { skipped: 'no certificate yet since the registration' };
  const certifiedHeight = certificate?.height ?? lastCertificate.height;
  const certifiedRecord = sources.ccmRecords.find((record) => record.height === certifiedHeight);
  // Messages under a new certificate need the outbox root proof of its height; without one the
  // certificate goes alone and the messages wait for the next certificate.
  const provable = certificate === undefined || (certifiedRecord !== undefined && certifiedRecord.unproven !== true);
  const inbox = provable
    ? chooseInboxMessages(sources.ccmRecords, sources.inboxSizeOnReceivingChain, certifiedHeight, sources.maxCCUSize)
    : { crossChainMessages: [], messageWitnessHashes: [], lastCcm: undefined };
  const lastData = sources.validatorsData(lastCertificate.validatorsHash);
  if (certificate === undefined) {
    if (inbox.crossChainMessages.length === 0) return { skipped: 'no new certificate and no pending message' };
    if (lastData === undefined) throw new Error('No validators recorded for the last certificate.');
    return {
      built: {
        params: ccuParams(sources.sendingChainID, EMPTY, noValidatorsUpdate(), lastData.certificateThreshold, inbox, EMPTY_WITNESS),
        certificate,
        lastCcm: inbox.lastCcm,
      },
    };
  }
  let update = noValidatorsUpdate();
  let threshold: bigint;
  if (lastCertificate.validatorsHash.equals(certificate.validatorsHash)) {
    if (lastData === undefined) throw new Error('No validators recorded for the last certificate.');
    threshold = lastData.certificateThreshold;
  } else {
    const nextData = sources.validatorsData(certificate.validatorsHash);
    if (nextData === undefined) throw new Error(`No validators recorded for the certificate at height ${certificate.height}.`);
    if (lastData === undefined) throw new Error('No validators recorded for the last certificate.');
    update = activeValidatorsUpdate(lastData.validators, nextData.validators);
    threshold = nextData.certificateThreshold;
  }
  const witness = inbox.crossChainMessages.length === 0 ? EMPTY_WITNESS : (certifiedRecord?.inclusionProof ?? EMPTY_WITNESS);
  return {
    built: {
      params: ccuParams(sources.sendingChainID, encodeCertificate(certificate), update, threshold, inbox, witness),
      certificate,
      lastCcm: inbox.lastCcm,
    },
  };
}

function noValidatorsUpdate(): ActiveValidatorsUpdate {
  return { blsKeysUpdate: [], bftWeightsUpdate: [], bftWeightsUpdateBitmap: EMPTY };
}

function ccuParams(
  sendingChainID: Buffer,
  certificate: Buffer,
  activeValidatorsUpdate: ActiveValidatorsUpdate,
  certificateThreshold: bigint,
  inbox: InboxUpdateChoice,
  outboxRootWitness: OutboxRootWitness,
): CcuParams {
  return {
    sendingChainID,
    certificate,
    activeValidatorsUpdate,
    certificateThreshold,
    inboxUpdate: {
      crossChainMessages: inbox.crossChainMessages,
      messageWitnessHashes: inbox.messageWitnessHashes,
      outboxRootWitness,
    },
  };
}
