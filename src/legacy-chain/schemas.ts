/**
 * The codec schemas of the v3 chain as Lisk Core v4 keeps it (lisk-sdk v6.1.0
 * `framework/src/engine/legacy/schemas.ts`): a v3 block header and transaction exactly as Lisk
 * Core 3 (lisk-sdk v5, `elements/lisk-chain`) encoded them, the `{header, payload}` wrapper in
 * which blocks travel between v4 peers, and a bracket's state.
 */
import type { Schema } from '../codec/index.js';

const HASH_LENGTH = 32;
const PUBLIC_KEY_LENGTH = 32;
const SIGNATURE_LENGTH = 64;

/** One block as peers exchange it: the v3 header bytes and the v3 transaction bytes, in block order. */
export const legacyBlockSchema: Schema = {
  $id: '/block/v2',
  type: 'object',
  properties: {
    header: { dataType: 'bytes', fieldNumber: 1 },
    payload: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 2 },
  },
  required: ['header', 'payload'],
};

/**
 * The v3 (block version 2) header. Its ID is the SHA-256 of these bytes, signature included. The
 * signature is optional in the schema; the genesis block of a v3 chain has empty previousBlockID,
 * generatorPublicKey and signature, which is why the lengths are only checked by `validate`.
 */
export const legacyBlockHeaderSchema: Schema = {
  $id: '/block/v2/header/',
  type: 'object',
  properties: {
    version: { dataType: 'uint32', fieldNumber: 1 },
    timestamp: { dataType: 'uint32', fieldNumber: 2 },
    height: { dataType: 'uint32', fieldNumber: 3 },
    previousBlockID: { dataType: 'bytes', fieldNumber: 4, minLength: HASH_LENGTH, maxLength: HASH_LENGTH },
    transactionRoot: { dataType: 'bytes', fieldNumber: 5, minLength: HASH_LENGTH, maxLength: HASH_LENGTH },
    generatorPublicKey: { dataType: 'bytes', fieldNumber: 6, minLength: PUBLIC_KEY_LENGTH, maxLength: PUBLIC_KEY_LENGTH },
    reward: { dataType: 'uint64', fieldNumber: 7 },
    asset: { dataType: 'bytes', fieldNumber: 8 },
    signature: { dataType: 'bytes', fieldNumber: 9, minLength: SIGNATURE_LENGTH, maxLength: SIGNATURE_LENGTH },
  },
  required: ['version', 'timestamp', 'height', 'previousBlockID', 'transactionRoot', 'generatorPublicKey', 'reward', 'asset'],
};

/** The v3 transaction (lisk-sdk v5 `elements/lisk-chain/src/transaction.ts`); its ID is the SHA-256 of its bytes. */
export const legacyTransactionSchema: Schema = {
  $id: '/block/v2/transaction',
  type: 'object',
  required: ['moduleID', 'assetID', 'nonce', 'fee', 'senderPublicKey', 'asset'],
  properties: {
    moduleID: { dataType: 'uint32', fieldNumber: 1, minimum: 2 },
    assetID: { dataType: 'uint32', fieldNumber: 2 },
    nonce: { dataType: 'uint64', fieldNumber: 3 },
    fee: { dataType: 'uint64', fieldNumber: 4 },
    senderPublicKey: { dataType: 'bytes', fieldNumber: 5, minLength: 32, maxLength: 32 },
    asset: { dataType: 'bytes', fieldNumber: 6 },
    signatures: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 7 },
  },
};

/**
 * What a node records per bracket: its configured range and `lastBlockHeight`, the lowest height
 * held in an unbroken run down from the snapshot block (the bracket is complete once it equals
 * `startHeight`).
 */
export const legacyBracketInfoSchema: Schema = {
  $id: '/legacy/legacyChainBracketInfo',
  type: 'object',
  properties: {
    startHeight: { dataType: 'uint32', fieldNumber: 1 },
    snapshotBlockHeight: { dataType: 'uint32', fieldNumber: 2 },
    lastBlockHeight: { dataType: 'uint32', fieldNumber: 3 },
  },
  required: ['startHeight', 'snapshotBlockHeight', 'lastBlockHeight'],
};

/** A getLegacyBlocksFromId answer: encoded `{header, payload}` blocks, highest first. */
export const legacyBlocksAnswerSchema: Schema = {
  $id: '/lisk/getBlocksFromIdResponse',
  type: 'object',
  required: ['blocks'],
  properties: { blocks: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } } },
};
