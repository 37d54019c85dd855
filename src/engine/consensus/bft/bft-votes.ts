/**
 * The BFT vote bookkeeping of LIP 0056 as lisk-sdk 6.1 runs it (engine/bft/bft_votes.ts), as pure
 * functions over the votes record. Every block implies prevotes by its generator for the blocks
 * since its previous one, and precommits for the blocks that already reached the prevote threshold.
 */
import type { BftParameters, BftVotes, BlockBftInfo } from './schemas.js';
import { ConsensusError } from '../../../errors.js';

export type ParametersAt = (height: number) => BftParameters;

export function insertBlockBftInfo(votes: BftVotes, info: BlockBftInfo, maxLength: number): void {
  votes.blockBFTInfos = [info, ...votes.blockBFTInfos].slice(0, maxLength);
}

/**
 * The highest height the new block's generator has NOT yet prevoted for by an earlier block of
 * its own chain of blocks, walking back through its maxHeightGenerated links.
 */
export function heightNotPrevoted(votes: BftVotes): number {
  const infos = votes.blockBFTInfos;
  const newest = infos[0] as BlockBftInfo;
  let previousHeight = newest.maxHeightGenerated;
  while (newest.height - previousHeight < infos.length) {
    const info = infos[newest.height - previousHeight] as BlockBftInfo;
    if (!info.generatorAddress.equals(newest.generatorAddress) || info.maxHeightGenerated >= previousHeight) {
      return previousHeight;
    }
    previousHeight = info.maxHeightGenerated;
  }
  return (infos[infos.length - 1] as BlockBftInfo).height - 1;
}

function weightOf(parameters: BftParameters, address: Buffer, height: number): bigint {
  const validator = parameters.validators.find((v) => v.address.equals(address));
  if (!validator) {
    throw new ConsensusError(`Invalid state: validator ${address.toString('hex')} must be in the BFT parameters at height ${height}`);
  }
  return validator.bftWeight;
}

/** Adds the newest block's implied precommits (first) and prevotes (second) to the infos. */
export function updatePrevotesPrecommits(votes: BftVotes, parametersAt: ParametersAt): void {
  const newest = votes.blockBFTInfos[0];
  if (!newest || newest.maxHeightGenerated >= newest.height) return;
  const voter = votes.activeValidatorsVoteInfo.find((v) => v.address.equals(newest.generatorAddress));
  if (!voter) return;

  // The window spans hundreds of heights but a handful of parameter sets (parametersAt hands out
  // one object per set): the generator is looked up once per set, not once per height.
  const weights = new Map<BftParameters, bigint>();
  const generatorWeight = (parameters: BftParameters): bigint => {
    let weight = weights.get(parameters);
    if (weight === undefined) {
      weight = weightOf(parameters, newest.generatorAddress, newest.height);
      weights.set(parameters, weight);
    }
    return weight;
  };

  const minPrecommitHeight = Math.max(voter.minActiveHeight, heightNotPrevoted(votes) + 1, voter.largestHeightPrecommit + 1);
  let precommitted = false;
  for (const info of votes.blockBFTInfos) {
    if (info.height < minPrecommitHeight) break;
    const parameters = parametersAt(info.height);
    if (info.prevoteWeight >= parameters.prevoteThreshold) {
      info.precommitWeight += generatorWeight(parameters);
      if (!precommitted) {
        voter.largestHeightPrecommit = info.height;
        precommitted = true;
      }
    }
  }

  const minPrevoteHeight = Math.max(newest.maxHeightGenerated + 1, voter.minActiveHeight);
  for (const info of votes.blockBFTInfos) {
    if (info.height < minPrevoteHeight) break;
    info.prevoteWeight += generatorWeight(parametersAt(info.height));
  }
}

/** maxHeightPrevoted: the newest block whose prevote weight reached its threshold. */
export function updateMaxHeightPrevoted(votes: BftVotes, parametersAt: ParametersAt): void {
  for (const info of votes.blockBFTInfos) {
    if (info.prevoteWeight >= parametersAt(info.height).prevoteThreshold) {
      votes.maxHeightPrevoted = info.height;
      return;
    }
  }
}

/** maxHeightPrecommitted (the finalized height): the newest block with enough precommits. */
export function updateMaxHeightPrecommitted(votes: BftVotes, parametersAt: ParametersAt): void {
  for (const info of votes.blockBFTInfos) {
    if (info.precommitWeight >= parametersAt(info.height).precommitThreshold) {
      votes.maxHeightPrecommitted = info.height;
      return;
    }
  }
}
