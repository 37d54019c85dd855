/**
 * The lisk-codec schemas of the Lisk Core 3 records the migration reads, as Lisk Core 3.0
 * stored them (lisk-framework 0.9 account schema with its token, sequence, keys and dpos parts;
 * lisk-chain 3.x block header and transaction; the dpos module's unregistered addresses and
 * delegate vote weights; the forger's previously forged list), with the TypeScript shape each
 * decodes to.
 */
import type { Schema } from '../../codec/index.js';

export {
  type V3BlockHeader,
  type V3Transaction,
  v3BlockHeaderSchema,
  v3TransactionSchema,
} from '../../chain/v3-block-formats.js';

const bytes = (fieldNumber: number) => ({ dataType: 'bytes', fieldNumber }) as const;
const uint32 = (fieldNumber: number) => ({ dataType: 'uint32', fieldNumber }) as const;
const uint64 = (fieldNumber: number) => ({ dataType: 'uint64', fieldNumber }) as const;

export interface V3Account {
  readonly address: Buffer;
  readonly token: { readonly balance: bigint };
  readonly sequence: { readonly nonce: bigint };
  readonly keys: {
    readonly numberOfSignatures: number;
    readonly mandatoryKeys: readonly Buffer[];
    readonly optionalKeys: readonly Buffer[];
  };
  readonly dpos: {
    readonly delegate: {
      readonly username: string;
      readonly pomHeights: readonly number[];
      readonly consecutiveMissedBlocks: number;
      readonly lastForgedHeight: number;
      readonly isBanned: boolean;
      readonly totalVotesReceived: bigint;
    };
    readonly sentVotes: readonly V3Vote[];
    readonly unlocking: readonly V3Unlocking[];
  };
}

export interface V3Vote {
  readonly delegateAddress: Buffer;
  readonly amount: bigint;
}

export interface V3Unlocking {
  readonly delegateAddress: Buffer;
  readonly amount: bigint;
  readonly unvoteHeight: number;
}

export const v3AccountSchema: Schema = {
  $id: '/v3/account',
  type: 'object',
  properties: {
    address: bytes(1),
    token: { type: 'object', fieldNumber: 2, properties: { balance: uint64(1) } },
    sequence: { type: 'object', fieldNumber: 3, properties: { nonce: uint64(1) } },
    keys: {
      type: 'object',
      fieldNumber: 4,
      properties: {
        numberOfSignatures: uint32(1),
        mandatoryKeys: { type: 'array', fieldNumber: 2, items: { dataType: 'bytes' } },
        optionalKeys: { type: 'array', fieldNumber: 3, items: { dataType: 'bytes' } },
      },
    },
    dpos: {
      type: 'object',
      fieldNumber: 5,
      properties: {
        delegate: {
          type: 'object',
          fieldNumber: 1,
          properties: {
            username: { dataType: 'string', fieldNumber: 1 },
            pomHeights: { type: 'array', fieldNumber: 2, items: { dataType: 'uint32' } },
            consecutiveMissedBlocks: uint32(3),
            lastForgedHeight: uint32(4),
            isBanned: { dataType: 'boolean', fieldNumber: 5 },
            totalVotesReceived: uint64(6),
          },
        },
        sentVotes: {
          type: 'array',
          fieldNumber: 2,
          items: { type: 'object', properties: { delegateAddress: bytes(1), amount: uint64(2) } },
        },
        unlocking: {
          type: 'array',
          fieldNumber: 3,
          items: { type: 'object', properties: { delegateAddress: bytes(1), amount: uint64(2), unvoteHeight: uint32(3) } },
        },
      },
    },
  },
};

export interface V3UnregisteredAddress {
  /** 8 bytes: the legacy (pre-LIP 0018) address. */
  readonly address: Buffer;
  readonly balance: bigint;
}

export const v3UnregisteredAddressesSchema: Schema = {
  $id: '/v3/unregisteredAddresses',
  type: 'object',
  properties: {
    unregisteredAddresses: {
      type: 'array',
      fieldNumber: 1,
      items: { type: 'object', properties: { address: bytes(1), balance: uint64(2) } },
    },
  },
};

export interface V3VoteWeights {
  readonly round: number;
  readonly delegates: readonly { readonly address: Buffer; readonly voteWeight: bigint }[];
}

export const v3VoteWeightsSchema: Schema = {
  $id: '/v3/delegateVoteWeights',
  type: 'object',
  properties: {
    voteWeights: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        properties: {
          round: uint32(1),
          delegates: {
            type: 'array',
            fieldNumber: 2,
            items: { type: 'object', properties: { address: bytes(1), voteWeight: uint64(2) } },
          },
        },
      },
    },
  },
};

export interface V3PreviouslyForgedEntry {
  readonly generatorAddress: Buffer;
  readonly height: number;
  readonly maxHeightPrevoted: number;
  readonly maxHeightPreviouslyForged: number;
}

export const v3PreviouslyForgedSchema: Schema = {
  $id: '/v3/forger/previouslyForged',
  type: 'object',
  properties: {
    previouslyForgedInfo: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        properties: { generatorAddress: bytes(1), height: uint32(2), maxHeightPrevoted: uint32(3), maxHeightPreviouslyForged: uint32(4) },
      },
    },
  },
};

export interface V3StateDiff {
  /** Keys (Lisk Core 3 key strings) that existed before the block, with their previous values. */
  readonly updated: readonly { readonly key: string; readonly value: Buffer }[];
  /** Keys the block created. */
  readonly created: readonly string[];
  /** Keys the block deleted, with their previous values. */
  readonly deleted: readonly { readonly key: string; readonly value: Buffer }[];
}

const keyValueItems = { type: 'object', properties: { key: { dataType: 'string', fieldNumber: 1 }, value: bytes(2) } } as const;

/** `diff:<height>`: what applying the block at that height changed (lisk-chain 3.x StateStore). */
export const v3StateDiffSchema: Schema = {
  $id: '/v3/stateDiff',
  type: 'object',
  properties: {
    updated: { type: 'array', fieldNumber: 1, items: keyValueItems },
    created: { type: 'array', fieldNumber: 2, items: { dataType: 'string' } },
    deleted: { type: 'array', fieldNumber: 3, items: keyValueItems },
  },
};
