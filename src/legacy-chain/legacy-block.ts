/**
 * The v3 block and transaction as bytes, IDs and JSON (lisk-sdk v6.1.0
 * `framework/src/engine/legacy/codec.ts`). Lisk Core 3 (lisk-sdk v5 `elements/lisk-chain`)
 * identifies a block by the SHA-256 of its encoded header, signature included, and a transaction
 * by the SHA-256 of its encoded bytes, signatures included; the header's transactionRoot is the
 * regular Merkle root of the transaction IDs in block order (LIP 0032 over the tree of LIP 0031).
 */
import { codec } from '../codec/index.js';
import { sha256 } from '../crypto/index.js';
import { merkleRoot } from '../merkle/index.js';
import { legacyBlockHeaderSchema, legacyBlockSchema, legacyTransactionSchema } from './schemas.js';

import type { V3BlockHeader as LegacyBlockHeader } from '../chain/v3-block-formats.js';

export type { LegacyBlockHeader };

/** A stored v3 block: its ID, the header bytes as v3 encoded them and its transactions' bytes. */
export interface LegacyBlock {
  readonly id: Buffer;
  readonly header: Buffer;
  readonly payload: readonly Buffer[];
}

/** The block ID: SHA-256 of the header bytes. */
export function legacyBlockId(header: Uint8Array): Buffer {
  return sha256(header);
}

/** The transaction ID: SHA-256 of the transaction bytes. */
export function legacyTransactionId(transaction: Uint8Array): Buffer {
  return sha256(transaction);
}

/** The transactionRoot a header must carry for these transaction IDs (block order). */
export function legacyTransactionRoot(transactionIds: readonly Uint8Array[]): Buffer {
  return merkleRoot(transactionIds);
}

export function decodeLegacyHeader(header: Uint8Array): LegacyBlockHeader {
  return codec.decode<LegacyBlockHeader>(legacyBlockHeaderSchema, header);
}

/** `{header, payload}` as one block of a getLegacyBlocksFromId answer. */
export function encodeLegacyBlock(block: Pick<LegacyBlock, 'header' | 'payload'>): Buffer {
  return codec.encode(legacyBlockSchema, { header: block.header, payload: block.payload });
}

export function decodeLegacyBlock(bytes: Uint8Array): LegacyBlock {
  const { header, payload } = codec.decode<{ header: Buffer; payload: Buffer[] }>(legacyBlockSchema, bytes);
  return { id: legacyBlockId(header), header, payload };
}

/**
 * The JSON of `legacy_getBlockByID` / `legacy_getBlockByHeight`: the header's fields in schema
 * order followed by its `id`, and the transactions as hex.
 */
export function legacyBlockJSON(block: LegacyBlock): { header: Record<string, unknown>; payload: string[] } {
  return {
    header: { ...codec.toJSON(legacyBlockHeaderSchema, decodeLegacyHeader(block.header)), id: block.id.toString('hex') },
    payload: block.payload.map((transaction) => transaction.toString('hex')),
  };
}

/** The JSON of one `legacy_getTransactionByID` answer: the fields in schema order, then `id`. */
export function legacyTransactionJSON(transaction: Buffer): Record<string, unknown> {
  const decoded = codec.decode<Record<string, unknown>>(legacyTransactionSchema, transaction);
  return { ...codec.toJSON(legacyTransactionSchema, decoded), id: legacyTransactionId(transaction).toString('hex') };
}
