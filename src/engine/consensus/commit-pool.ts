import type { AggregateCommit, BlockHeader } from '../../chain/block-header.js';
import { createAggSig, MESSAGE_TAG_CERTIFICATE, signBLS } from '../../crypto/index.js';
import type { StateReader } from '../../state/state-view.js';
import { unsignedCertificateBytes } from './aggregate-commit.js';
import type { Bft } from './bft/bft.js';
import { ConsensusError } from '../../errors.js';

/** A validator's BLS signature on the certificate of one block (LIP 0061 single commit). */
export interface SingleCommit {
  readonly blockID: Buffer;
  readonly height: number;
  readonly validatorAddress: Buffer;
  readonly certificateSignature: Buffer;
}

/** How far below maxHeightPrecommitted commits are still kept (lisk-sdk COMMIT_RANGE_STORED). */
export const COMMIT_RANGE_STORED = 100;

const EMPTY = Buffer.alloc(0);

export function createSingleCommit(header: BlockHeader, validatorAddress: Buffer, blsSecretKey: Buffer, chainID: Buffer): SingleCommit {
  return {
    blockID: header.id,
    height: header.height,
    validatorAddress,
    certificateSignature: signBLS(MESSAGE_TAG_CERTIFICATE, chainID, unsignedCertificateBytes(header), blsSecretKey),
  };
}

/**
 * Single commits of finalized blocks, and the choice of the aggregate commit a new block carries
 * (lisk-sdk engine/consensus/certificate_generation/commit_pool.ts): the highest precommitted
 * height not beyond the next validator change whose commits reach the certificate threshold.
 * Commits from peers will enter through `add` once the node syncs; until then they are the
 * node's own validators'.
 */
export class CommitPool {
  private readonly byHeight = new Map<number, SingleCommit[]>();

  constructor(
    private readonly bft: Bft,
    private readonly minimumCertifyHeight: number,
  ) {}

  add(commit: SingleCommit): void {
    const list = this.byHeight.get(commit.height) ?? [];
    const duplicate = list.some((c) => c.validatorAddress.equals(commit.validatorAddress) && c.blockID.equals(commit.blockID));
    if (duplicate) return;
    list.push(commit);
    this.byHeight.set(commit.height, list);
  }

  commitsAt(height: number): readonly SingleCommit[] {
    return this.byHeight.get(height) ?? [];
  }

  size(): number {
    let total = 0;
    for (const list of this.byHeight.values()) total += list.length;
    return total;
  }

  /** The aggregate commit for the next block, or the empty one repeating maxHeightCertified. */
  selectAggregateCommit(engineState: StateReader): AggregateCommit {
    const { maxHeightCertified, maxHeightPrecommitted } = this.bft.getHeights(engineState);
    let nextHeight = maxHeightPrecommitted;
    const changeHeight = this.bft.nextParametersHeight(engineState, maxHeightCertified + 1);
    if (changeHeight !== undefined) {
      nextHeight = Math.min(Math.max(changeHeight, this.minimumCertifyHeight + 1) - 1, maxHeightPrecommitted);
    }
    const certifyUpTo = Math.max(maxHeightCertified, this.minimumCertifyHeight - 1);
    for (let height = nextHeight; height > certifyUpTo; height -= 1) {
      const commits = this.commitsAt(height);
      if (commits.length === 0) continue;
      const { validators, certificateThreshold } = this.bft.getParameters(engineState, height);
      const active = validators.filter((v) => v.bftWeight > 0n);
      let weight = 0n;
      for (const commit of commits) {
        const validator = active.find((v) => v.address.equals(commit.validatorAddress));
        if (!validator)
          throw new ConsensusError(`Commit of ${commit.validatorAddress.toString('hex')} at ${height} is not from an active validator.`);
        weight += validator.bftWeight;
      }
      if (weight < certificateThreshold) continue;
      const keys = active.map((v) => v.blsKey).sort((a, b) => a.compare(b));
      const pairs = commits.map((commit) => ({
        publicKey: (active.find((v) => v.address.equals(commit.validatorAddress)) as { blsKey: Buffer }).blsKey,
        signature: commit.certificateSignature,
      }));
      const { aggregationBits, signature } = createAggSig(keys, pairs);
      return { height, aggregationBits, certificateSignature: signature };
    }
    return { height: maxHeightCertified, aggregationBits: EMPTY, certificateSignature: EMPTY };
  }

  /**
   * Drops commits no block can use any more (lisk-sdk _getDeleteHeights): at or below the removal
   * height, or outside the kept range unless a validator change follows their height.
   */
  prune(engineState: StateReader, removalHeight: number, currentHeight: number): void {
    const { maxHeightPrecommitted } = this.bft.getHeights(engineState);
    for (const height of [...this.byHeight.keys()]) {
      const inRange = maxHeightPrecommitted - COMMIT_RANGE_STORED <= height && height <= currentHeight;
      if (height <= removalHeight || (!inRange && !this.bft.parametersChangeAt(engineState, height + 1))) {
        this.byHeight.delete(height);
      }
    }
  }
}
