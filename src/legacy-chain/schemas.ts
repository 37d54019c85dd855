/**
 * The codec schemas of the v3 chain as Lisk Core v4 keeps it (lisk-sdk v6.1.0
 * `framework/src/engine/legacy/schemas.ts`): a v3 block header and transaction exactly as Lisk
 * Core 3 (lisk-sdk v5, `elements/lisk-chain`) encoded them, the `{header, payload}` wrapper in
 * which blocks travel between v4 peers, and a bracket's state.
 */
import type { Schema } from '../codec/index.js';

export {
  v3BlockHeaderSchema as legacyBlockHeaderSchema,
  v3TransactionSchema as legacyTransactionSchema,
} from '../chain/v3-block-formats.js';

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
