import { objectArrayField, objectSchema, type Schema } from '../../../codec/index.js';

/** BFT parameters valid from a height on (LIP 0058, lisk-sdk engine/bft/schemas.ts). */
export interface BftValidator {
  readonly address: Buffer;
  readonly bftWeight: bigint;
  readonly generatorKey: Buffer;
  readonly blsKey: Buffer;
}

export interface BftParameters {
  readonly prevoteThreshold: bigint;
  readonly precommitThreshold: bigint;
  readonly certificateThreshold: bigint;
  readonly validators: readonly BftValidator[];
  readonly validatorsHash: Buffer;
}

export interface BlockBftInfo {
  readonly height: number;
  readonly generatorAddress: Buffer;
  readonly maxHeightGenerated: number;
  readonly maxHeightPrevoted: number;
  prevoteWeight: bigint;
  precommitWeight: bigint;
}

export interface ActiveValidatorVoteInfo {
  readonly address: Buffer;
  readonly minActiveHeight: number;
  largestHeightPrecommit: number;
}

export interface BftVotes {
  maxHeightPrevoted: number;
  maxHeightPrecommitted: number;
  maxHeightCertified: number;
  /** Newest first, at most 3 × bftBatchSize entries. */
  blockBFTInfos: BlockBftInfo[];
  /** Sorted by address. */
  activeValidatorsVoteInfo: ActiveValidatorVoteInfo[];
}

export const bftParametersSchema: Schema = objectSchema('/modules/bft/bftParameters', {
  prevoteThreshold: { dataType: 'uint64', fieldNumber: 1 },
  precommitThreshold: { dataType: 'uint64', fieldNumber: 2 },
  certificateThreshold: { dataType: 'uint64', fieldNumber: 3 },
  validators: objectArrayField(4, {
    address: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' },
    bftWeight: { dataType: 'uint64', fieldNumber: 2 },
    generatorKey: { dataType: 'bytes', fieldNumber: 3 },
    blsKey: { dataType: 'bytes', fieldNumber: 4 },
  }),
  validatorsHash: { dataType: 'bytes', fieldNumber: 5 },
});

export const bftVotesSchema: Schema = objectSchema('/modules/bft/bftVotes', {
  maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 1 },
  maxHeightPrecommitted: { dataType: 'uint32', fieldNumber: 2 },
  maxHeightCertified: { dataType: 'uint32', fieldNumber: 3 },
  blockBFTInfos: objectArrayField(4, {
    height: { dataType: 'uint32', fieldNumber: 1 },
    generatorAddress: { dataType: 'bytes', fieldNumber: 2 },
    maxHeightGenerated: { dataType: 'uint32', fieldNumber: 3 },
    maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 4 },
    prevoteWeight: { dataType: 'uint64', fieldNumber: 5 },
    precommitWeight: { dataType: 'uint64', fieldNumber: 6 },
  }),
  activeValidatorsVoteInfo: objectArrayField(5, {
    address: { dataType: 'bytes', fieldNumber: 1 },
    minActiveHeight: { dataType: 'uint32', fieldNumber: 2 },
    largestHeightPrecommit: { dataType: 'uint32', fieldNumber: 3 },
  }),
});
