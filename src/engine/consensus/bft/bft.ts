import { areDistinctHeadersContradicting } from '../../../chain/contradicting-headers.js';
import { computeValidatorsHash } from '../../../chain/validators-hash.js';
import type { NextValidator } from '../../../modules/base/index.js';
import type { StateReader, StateWriter } from '../../../state/state-view.js';
import {
  deleteParametersBelow,
  decodeVotes,
  hasParametersAt,
  nextParametersHeight,
  parametersResolver,
  readParameters,
  readVotes,
  readVotesBytes,
  writeParameters,
  writeVotes,
} from './bft-store.js';
import { insertBlockBftInfo, updateMaxHeightPrecommitted, updateMaxHeightPrevoted, updatePrevotesPrecommits } from './bft-votes.js';
import type { BftParameters, BftValidator, BftVotes } from './schemas.js';
import { ConsensusError } from '../../../errors.js';

/** The header fields BFT reads (LIP 0058). */
export interface BftHeader {
  readonly height: number;
  readonly generatorAddress: Buffer;
  readonly maxHeightGenerated: number;
  readonly maxHeightPrevoted: number;
  readonly aggregateCommit: { readonly height: number; readonly aggregationBits: Buffer; readonly certificateSignature: Buffer };
}

export interface BftHeights {
  readonly maxHeightPrevoted: number;
  readonly maxHeightPrecommitted: number;
  readonly maxHeightCertified: number;
}

const EMPTY_BLS_KEY = Buffer.alloc(48);

function uniqueBuffers(values: readonly Buffer[]): boolean {
  return new Set(values.map((value) => value.toString('latin1'))).size === values.length;
}

/**
 * The engine's BFT module (LIP 0056/0058, lisk-sdk engine/bft): the votes record and the
 * parameters per height, kept in the engine state passed to every call.
 */
export class Bft {
  /** blockBFTInfos keeps the last 3 × batch size blocks. */
  private readonly maxBlockInfos: number;
  /** The last votes record decoded for read-only use, with the bytes it came from. */
  private votesView: { raw: Buffer; votes: BftVotes } | undefined;

  constructor(
    private readonly batchSize: number,
    private readonly blockTime: number,
  ) {
    this.maxBlockInfos = 3 * batchSize;
  }

  /** Genesis: all three heights start at the genesis height, with no block infos yet. */
  initGenesisState(state: StateWriter, genesisHeight: number): void {
    writeVotes(state, {
      maxHeightPrevoted: genesisHeight,
      maxHeightPrecommitted: genesisHeight,
      maxHeightCertified: genesisHeight,
      blockBFTInfos: [],
      activeValidatorsVoteInfo: [],
    });
  }

  /**
   * Updates the votes with a new block before its transactions run (lisk-sdk
   * BFTModule.beforeTransactionsExecute); `maxRemovalHeight` bounds pruning of old parameters.
   */
  beforeTransactionsExecute(state: StateWriter, header: BftHeader, maxRemovalHeight: number): void {
    const votes = readVotes(state);
    insertBlockBftInfo(
      votes,
      {
        height: header.height,
        generatorAddress: header.generatorAddress,
        maxHeightGenerated: header.maxHeightGenerated,
        maxHeightPrevoted: header.maxHeightPrevoted,
        prevoteWeight: 0n,
        precommitWeight: 0n,
      },
      this.maxBlockInfos,
    );
    const parametersAt = parametersResolver(state);
    updatePrevotesPrecommits(votes, parametersAt);
    updateMaxHeightPrevoted(votes, parametersAt);
    updateMaxHeightPrecommitted(votes, parametersAt);
    const commit = header.aggregateCommit;
    if (commit.aggregationBits.length > 0 || commit.certificateSignature.length > 0) {
      votes.maxHeightCertified = commit.height;
    }
    writeVotes(state, votes);
    const oldestInfo = votes.blockBFTInfos[votes.blockBFTInfos.length - 1] as { height: number };
    deleteParametersBelow(state, Math.min(oldestInfo.height, maxRemovalHeight));
  }

  /**
   * Stores the validator set for the next height (lisk-sdk BFTMethod.setBFTParameters), with
   * the checks on size, uniqueness, weights and thresholds, and the derived prevote threshold
   * and validatorsHash.
   */
  setParameters(state: StateWriter, precommitThreshold: bigint, certificateThreshold: bigint, validators: readonly NextValidator[]): void {
    if (validators.length > this.batchSize) {
      throw new ConsensusError(`Invalid validators size. The number of validators can be at most the batch size ${this.batchSize}.`);
    }
    if (!uniqueBuffers(validators.map((v) => v.address))) {
      throw new ConsensusError('Provided validator addresses are not unique.');
    }
    if (!uniqueBuffers(validators.map((v) => v.blsKey).filter((key) => !key.equals(EMPTY_BLS_KEY)))) {
      throw new ConsensusError('Provided validator BLS keys are not unique.');
    }
    let totalWeight = 0n;
    for (const validator of validators) {
      if (validator.bftWeight < 0n) throw new ConsensusError('BFT Weight must be 0 or greater.');
      totalWeight += validator.bftWeight;
    }
    const minimumThreshold = totalWeight / 3n + 1n;
    if (precommitThreshold < minimumThreshold || precommitThreshold > totalWeight) {
      throw new ConsensusError('Invalid precommitThreshold input.');
    }
    if (certificateThreshold < minimumThreshold || certificateThreshold > totalWeight) {
      throw new ConsensusError('Invalid certificateThreshold input.');
    }
    const storedValidators: BftValidator[] = validators.map(({ address, bftWeight, generatorKey, blsKey }) => ({
      address,
      bftWeight,
      generatorKey,
      blsKey,
    }));
    const parameters: BftParameters = {
      prevoteThreshold: (2n * totalWeight) / 3n + 1n,
      precommitThreshold,
      certificateThreshold,
      validators: storedValidators,
      validatorsHash: computeValidatorsHash(storedValidators, certificateThreshold),
    };

    const votes = readVotes(state);
    // The block being executed is already the newest block info, so this is its height + 1.
    const nextHeight = (votes.blockBFTInfos[0]?.height ?? votes.maxHeightPrevoted) + 1;
    writeParameters(state, nextHeight, parameters);

    votes.activeValidatorsVoteInfo = validators
      .map(
        (validator) =>
          votes.activeValidatorsVoteInfo.find((v) => v.address.equals(validator.address)) ?? {
            address: validator.address,
            minActiveHeight: nextHeight,
            largestHeightPrecommit: nextHeight - 1,
          },
      )
      .sort((a, b) => a.address.compare(b.address));
    writeVotes(state, votes);
  }

  getParameters(state: StateReader, height: number): BftParameters {
    return readParameters(state, height);
  }

  /** Whether a new validator set starts exactly at `height`. */
  parametersChangeAt(state: StateReader, height: number): boolean {
    return hasParametersAt(state, height);
  }

  /** The first height above `height` with its own parameters, if any. */
  nextParametersHeight(state: StateReader, height: number): number | undefined {
    return nextParametersHeight(state, height);
  }

  getHeights(state: StateReader): BftHeights {
    const { maxHeightPrevoted, maxHeightPrecommitted, maxHeightCertified } = this.viewVotes(state);
    return { maxHeightPrevoted, maxHeightPrecommitted, maxHeightCertified };
  }

  /** impliesMaxPrevotes (docs/protocol/bft.md). Throws when `header` does not extend the tip. */
  impliesMaximalPrevotes(state: StateReader, header: Pick<BftHeader, 'height' | 'generatorAddress' | 'maxHeightGenerated'>): boolean {
    const { blockBFTInfos } = this.viewVotes(state);
    const tip = blockBFTInfos[0];
    if (!tip) return header.height > header.maxHeightGenerated;
    if (tip.height + 1 !== header.height) {
      throw new ConsensusError(`Input header with height ${header.height} is invalid. It must be ${tip.height + 1}.`);
    }
    if (header.maxHeightGenerated >= header.height) return false;
    const offset = tip.height - header.maxHeightGenerated;
    if (offset >= blockBFTInfos.length) return true;
    return (blockBFTInfos[offset] as { generatorAddress: Buffer }).generatorAddress.equals(header.generatorAddress);
  }

  /** Whether `header` contradicts the most recent stored block of the same generator (docs/protocol/bft.md). */
  isHeaderContradictingChain(state: StateReader, header: BftHeader): boolean {
    const previous = this.viewVotes(state).blockBFTInfos.find((info) => info.generatorAddress.equals(header.generatorAddress));
    return previous !== undefined && areDistinctHeadersContradicting(previous, header);
  }

  /**
   * The votes for reading only. Block checks read the record several times per block; decoding
   * its up to 309 block infos each time dominated block processing, so the decoded record is
   * reused while the stored bytes stay the same. Callers must not mutate it.
   */
  private viewVotes(state: StateReader): Readonly<BftVotes> {
    const raw = readVotesBytes(state);
    if (!this.votesView?.raw.equals(raw)) {
      this.votesView = { raw: Buffer.from(raw), votes: decodeVotes(raw) };
    }
    return this.votesView.votes;
  }

  slotNumber(timestamp: number): number {
    return Math.floor(timestamp / this.blockTime);
  }

  slotTime(slot: number): number {
    return slot * this.blockTime;
  }

  /** The validator allowed to generate at `timestamp` for a block at `height` (lisk-sdk BFTMethod.getGeneratorAtTimestamp). */
  generatorAtTimestamp(state: StateReader, height: number, timestamp: number): BftValidator {
    const { validators } = readParameters(state, height);
    return validators[this.slotNumber(timestamp) % validators.length] as BftValidator;
  }
}
