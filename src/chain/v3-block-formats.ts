/**
 * The block header and transaction of Lisk Core 3 (lisk-sdk v5 `elements/lisk-chain`), as it
 * encoded and stored them and as Lisk Core v4 still keeps and serves them (lisk-sdk v6.1.0
 * `framework/src/engine/legacy/schemas.ts`). Both the migration, which reads a v3 database, and
 * the legacy chain store, which keeps the v3 history, decode these bytes.
 */
import type { Schema } from '../codec/index.js';

const HASH_LENGTH = 32;
const PUBLIC_KEY_LENGTH = 32;
const SIGNATURE_LENGTH = 64;

/** The decoded v3 header (the fields the store and the checks read; JSON shows them all). */
export interface V3BlockHeader {
  readonly version: number;
  readonly timestamp: number;
  readonly height: number;
  readonly previousBlockID: Buffer;
  readonly transactionRoot: Buffer;
  readonly generatorPublicKey: Buffer;
  readonly reward: bigint;
  readonly asset: Buffer;
  readonly signature: Buffer;
}

/** A decoded v3 transaction. */
export interface V3Transaction {
  readonly moduleID: number;
  readonly assetID: number;
  readonly nonce: bigint;
  readonly fee: bigint;
  readonly senderPublicKey: Buffer;
  readonly asset: Buffer;
  readonly signatures: readonly Buffer[];
}

/**
 * The v3 (block version 2) header. Its ID is the SHA-256 of these bytes, signature included. The
 * signature is optional in the schema; the genesis block of a v3 chain has empty previousBlockID,
 * generatorPublicKey and signature, which is why the lengths are only checked by `validate`.
 */
export const v3BlockHeaderSchema: Schema = {
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
export const v3TransactionSchema: Schema = {
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
