/**
 * The protocol-level codec schemas of lisk-sdk 6.1 (lisk-chain schema.ts; as dumped in
 * test/fixtures/codec/protocol_schemas.json). Field numbers and types define the wire format;
 * length limits are checked by the static validation of each object.
 */
import { objectField, objectSchema, type Schema } from '../codec/index.js';

export const transactionSchema: Schema = {
  $id: '/lisk/transaction',
  type: 'object',
  required: ['module', 'command', 'nonce', 'fee', 'senderPublicKey', 'params'],
  properties: {
    module: { dataType: 'string', fieldNumber: 1, minLength: 1, maxLength: 32 },
    command: { dataType: 'string', fieldNumber: 2, minLength: 1, maxLength: 32 },
    nonce: { dataType: 'uint64', fieldNumber: 3 },
    fee: { dataType: 'uint64', fieldNumber: 4 },
    senderPublicKey: { dataType: 'bytes', fieldNumber: 5, minLength: 32, maxLength: 32 },
    params: { dataType: 'bytes', fieldNumber: 6 },
    signatures: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 7 },
  },
};

export const blockSchema: Schema = objectSchema('/block', {
  header: { dataType: 'bytes', fieldNumber: 1 },
  transactions: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 2 },
  assets: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 3 },
});

const aggregateCommitProperty = objectField(14, {
  height: { dataType: 'uint32', fieldNumber: 1 },
  aggregationBits: { dataType: 'bytes', fieldNumber: 2 },
  certificateSignature: { dataType: 'bytes', fieldNumber: 3 },
});

const signingHeaderProperties = {
  version: { dataType: 'uint32', fieldNumber: 1 },
  timestamp: { dataType: 'uint32', fieldNumber: 2 },
  height: { dataType: 'uint32', fieldNumber: 3 },
  previousBlockID: { dataType: 'bytes', fieldNumber: 4 },
  generatorAddress: { dataType: 'bytes', fieldNumber: 5, format: 'lisk32' },
  transactionRoot: { dataType: 'bytes', fieldNumber: 6 },
  assetRoot: { dataType: 'bytes', fieldNumber: 7 },
  eventRoot: { dataType: 'bytes', fieldNumber: 8 },
  stateRoot: { dataType: 'bytes', fieldNumber: 9 },
  maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 10 },
  maxHeightGenerated: { dataType: 'uint32', fieldNumber: 11 },
  impliesMaxPrevotes: { dataType: 'boolean', fieldNumber: 12 },
  validatorsHash: { dataType: 'bytes', fieldNumber: 13 },
  aggregateCommit: aggregateCommitProperty,
} as const;

/** Header without its signature: the bytes the generator signs. */
export const signingBlockHeaderSchema: Schema = objectSchema('/block/header/signing/3', signingHeaderProperties);

/** Full header (fields 1–15): its encoding is hashed into the block ID. */
export const blockHeaderSchema: Schema = objectSchema('/block/header/3/without-id', {
  ...signingHeaderProperties,
  signature: { dataType: 'bytes', fieldNumber: 15 },
});

export const blockAssetSchema: Schema = objectSchema('/block/asset/3', {
  module: { dataType: 'string', fieldNumber: 1 },
  data: { dataType: 'bytes', fieldNumber: 2 },
});

export const eventSchema: Schema = objectSchema('/block/event', {
  module: { dataType: 'string', minLength: 1, maxLength: 32, fieldNumber: 1 },
  name: { dataType: 'string', minLength: 1, maxLength: 32, fieldNumber: 2 },
  data: { dataType: 'bytes', fieldNumber: 3 },
  topics: { type: 'array', fieldNumber: 4, maxItems: 4, items: { dataType: 'bytes' } },
  height: { dataType: 'uint32', fieldNumber: 5 },
  index: { dataType: 'uint32', fieldNumber: 6, maximum: 1073741823 },
});

/** Data of the engine's per-transaction `commandExecutionResult` event. */
export const standardEventDataSchema: Schema = objectSchema('/block/event/standard', {
  success: { dataType: 'boolean', fieldNumber: 1 },
});
