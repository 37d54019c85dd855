import type { AggregateCommit, BlockHeader } from '../../chain/block-header.js';
import { codec, objectSchema, type Schema } from '../../codec/index.js';
import { MESSAGE_TAG_CERTIFICATE, verifyBlsCheck, weightedAggSigCheck, type BlsCheck } from '../../crypto/index.js';
import type { StateReader } from '../../state/state-view.js';
import type { Bft } from './bft/bft.js';

/** The certificate fields signed by validators (LIP 0061). */
export const unsignedCertificateSchema: Schema = objectSchema('/consensus/unsignedCertificate', {
  blockID: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 1 },
  height: { dataType: 'uint32', fieldNumber: 2 },
  timestamp: { dataType: 'uint32', fieldNumber: 3 },
  stateRoot: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 4 },
  validatorsHash: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 5 },
});

export function unsignedCertificateBytes(header: BlockHeader): Buffer {
  return codec.encode(unsignedCertificateSchema, {
    blockID: header.id,
    height: header.height,
    timestamp: header.timestamp,
    stateRoot: header.stateRoot,
    validatorsHash: header.validatorsHash,
  });
}

export interface AggregateCommitEnvironment {
  readonly bft: Bft;
  /** Engine state before the block's own BFT update. */
  readonly engineState: StateReader;
  readonly chainID: Buffer;
  readonly minimumCertifyHeight: number;
  headerAt(height: number): BlockHeader | undefined;
}

/**
 * Validity of a block's aggregate commit (docs/protocol/bft.md; lisk-sdk CommitPool
 * verifyAggregateCommit): an empty commit repeating maxHeightCertified, or a weighted aggregate
 * BLS signature over a stored, precommitted header above the last certified one.
 */
export function isAggregateCommitValid(commit: AggregateCommit, env: AggregateCommitEnvironment): boolean {
  const verdict = aggregateCommitVerdict(commit, env);
  return typeof verdict === 'boolean' ? verdict : verifyBlsCheck(verdict);
}

/**
 * isAggregateCommitValid up to its pairing: true or false when the rules decide alone, else the
 * BLS check that decides (for a SignatureVerifier to run off the main thread).
 */
export function aggregateCommitVerdict(commit: AggregateCommit, env: AggregateCommitEnvironment): boolean | BlsCheck {
  const { maxHeightCertified, maxHeightPrecommitted } = env.bft.getHeights(env.engineState);
  const noBits = commit.aggregationBits.length === 0;
  const noSignature = commit.certificateSignature.length === 0;
  if (noBits && noSignature && commit.height === maxHeightCertified) return true;
  if (noBits || noSignature) return false;
  if (commit.height <= maxHeightCertified || commit.height > maxHeightPrecommitted) return false;
  if (commit.height < env.minimumCertifyHeight) return false;

  const nextParametersHeight = env.bft.nextParametersHeight(env.engineState, maxHeightCertified + 1);
  if (nextParametersHeight !== undefined) {
    // Certificates may not skip a validator-set change: the new set must first certify itself.
    if (commit.height > Math.max(nextParametersHeight, env.minimumCertifyHeight + 1) - 1) return false;
  }

  const header = env.headerAt(commit.height);
  if (!header) return false;
  const { validators, certificateThreshold } = env.bft.getParameters(env.engineState, commit.height);
  const active = validators.filter((v) => v.bftWeight > 0n).sort((a, b) => a.blsKey.compare(b.blsKey));
  const check = weightedAggSigCheck(
    active.map((v) => v.blsKey),
    commit.aggregationBits,
    commit.certificateSignature,
    MESSAGE_TAG_CERTIFICATE,
    env.chainID,
    unsignedCertificateBytes(header),
    active.map((v) => v.bftWeight),
    certificateThreshold,
  );
  return check ?? false;
}
