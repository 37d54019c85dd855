import type { AggregateCommit, BlockHeader } from '../../chain/block-header.js';
import { createAggSig, MESSAGE_TAG_CERTIFICATE, signBLS, verifyBLS } from '../../crypto/index.js';
import type { StateReader } from '../../state/state-view.js';
import { unsignedCertificateBytes } from './aggregate-commit.js';
import type { Bft } from './bft/bft.js';
import type { ChainStore } from '../../chain/chain-store.js';
import { ConsensusError, StoreError } from '../../errors.js';

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
 * Commits come from the node's own validators (`local`) and from peers, after `validate`; each
 * is gossiped once (`selectForGossip`).
 */
export class CommitPool {
  private readonly byHeight = new Map<number, SingleCommit[]>();
  /** Commits not yet gossiped, by key; true for the node's own. */
  private readonly notGossiped = new Map<string, boolean>();

  constructor(
    private readonly bft: Bft,
    private readonly minimumCertifyHeight: number,
  ) {}

  add(commit: SingleCommit, local = true): void {
    if (this.has(commit)) return;
    const list = this.byHeight.get(commit.height) ?? [];
    list.push(commit);
    this.byHeight.set(commit.height, list);
    this.notGossiped.set(commitKey(commit), local);
  }

  has(commit: SingleCommit): boolean {
    const list = this.byHeight.get(commit.height);
    return list?.some((c) => c.validatorAddress.equals(commit.validatorAddress) && c.blockID.equals(commit.blockID)) ?? false;
  }

  /**
   * Whether a commit received from a peer belongs in the pool (lisk-sdk commit_pool.ts
   * validateCommit, steps 1-6): not known yet, above the removal height, in the kept range (or
   * before a validator change), for the block we hold at its height. Throws ConsensusError for a
   * commit that is wrong rather than useless: from a validator not active at its height, or with
   * a signature that does not verify (the sender is penalised).
   */
  validate(
    engineState: StateReader,
    commit: SingleCommit,
    context: {
      readonly removalHeight: number;
      readonly tipHeight: number;
      readonly header: BlockHeader | undefined;
      readonly chainID: Buffer;
    },
  ): boolean {
    if (this.has(commit) || commit.height <= context.removalHeight) return false;
    const { maxHeightPrecommitted } = this.bft.getHeights(engineState);
    const inRange = commit.height >= maxHeightPrecommitted - COMMIT_RANGE_STORED && commit.height <= context.tipHeight;
    if (!inRange && !this.bft.parametersChangeAt(engineState, commit.height + 1)) return false;
    if (!context.header?.id.equals(commit.blockID)) return false;
    const { validators } = this.bft.getParameters(engineState, commit.height);
    const validator = validators.find((v) => v.bftWeight > 0n && v.address.equals(commit.validatorAddress));
    if (!validator) throw new ConsensusError('Commit validator was not active for its height.');
    const message = unsignedCertificateBytes(context.header);
    if (!verifyBLS(MESSAGE_TAG_CERTIFICATE, context.chainID, message, commit.certificateSignature, validator.blsKey)) {
      throw new ConsensusError('Certificate signature is not valid.');
    }
    return true;
  }

  /**
   * The commits to gossip now, at most two per active validator of the next height (lisk-sdk
   * commit_pool.ts job): old ones below the kept range first, then the node's own newest first,
   * then the others newest first. They count as gossiped from then on.
   */
  selectForGossip(engineState: StateReader, tipHeight: number): SingleCommit[] {
    const { maxHeightPrecommitted } = this.bft.getHeights(engineState);
    const limit = 2 * this.bft.getParameters(engineState, tipHeight + 1).validators.filter((v) => v.bftWeight > 0n).length;
    const all = [...this.byHeight.values()].flat().sort((a, b) => a.height - b.height);
    const newestFirst = (local: boolean) =>
      all.filter((commit) => this.notGossiped.get(commitKey(commit)) === local).sort((a, b) => b.height - a.height);
    const selected: SingleCommit[] = [];
    const take = (commits: readonly SingleCommit[]): void => {
      for (const commit of commits) {
        if (selected.length >= limit) return;
        if (!selected.includes(commit)) selected.push(commit);
      }
    };
    take(all.filter((commit) => commit.height < maxHeightPrecommitted - COMMIT_RANGE_STORED));
    take(newestFirst(true));
    take(newestFirst(false));
    for (const commit of selected) this.notGossiped.delete(commitKey(commit));
    return selected;
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
        for (const commit of this.byHeight.get(height) ?? []) this.notGossiped.delete(commitKey(commit));
        this.byHeight.delete(height);
      }
    }
  }
}

function commitKey(commit: SingleCommit): string {
  return `${commit.height}:${commit.validatorAddress.toString('hex')}:${commit.blockID.toString('hex')}`;
}

/**
 * The height at or below which commits are of no use (lisk-sdk commit_pool.ts
 * getMaxRemovalHeight): the height the finalized block's aggregate commit certified, and never
 * below the chain's minimum certify height.
 */
export function commitRemovalHeight(
  chainStore: Pick<ChainStore, 'finalizedHeight' | 'getHeaderByHeight'>,
  minimumCertifyHeight: number,
): number {
  const finalized = chainStore.getHeaderByHeight(chainStore.finalizedHeight());
  if (!finalized) throw new StoreError('Store inconsistency: the finalized header is missing.');
  return Math.max(finalized.aggregateCommit.height, minimumCertifyHeight - 1);
}
