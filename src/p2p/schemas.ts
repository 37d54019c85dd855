/**
 * lisk-codec schemas of every P2P payload of lisk-sdk v6.1.0. Field numbers and types are the
 * wire format; the length limits are the request validation the serving side applies.
 *
 * Sources: `elements/lisk-p2p/src/schema.ts` (node info, peer info, getPeers answer),
 * `framework/src/engine/network/schema.ts` (the engine's node-info options, nested by lisk-p2p at
 * field 5), `framework/src/engine/consensus/schema.ts` (block procedures, postBlock),
 * `framework/src/engine/consensus/certificate_generation/schema.ts` (single commits),
 * `framework/src/engine/generator/schemas.ts` (transactions), `framework/src/engine/legacy/schemas.ts`.
 */
import { objectField, objectSchema, type Schema } from '../codec/index.js';

const ID_LENGTH = 32;
const bytesList = (fieldNumber: number, extra: Record<string, unknown> = {}) => ({
  type: 'array' as const,
  fieldNumber,
  items: { dataType: 'bytes' as const },
  ...extra,
});
const idList = (fieldNumber: number, extra: Record<string, unknown> = {}) => ({
  ...bytesList(fieldNumber, extra),
  items: { dataType: 'bytes' as const, minLength: ID_LENGTH, maxLength: ID_LENGTH },
});

/** A payload that is one list of byte strings: `{<name>: bytes[] #1}`. */
const listSchema = (id: string, name: string, items: ReturnType<typeof bytesList>): Schema => objectSchema(id, { [name]: items });

/** A payload that is one byte string: `{<name>: bytes #1}`. */
const bytesSchema = (id: string, name: string, extra: Record<string, unknown> = {}): Schema =>
  objectSchema(id, { [name]: { dataType: 'bytes', fieldNumber: 1, ...extra } });

/** 1 to 100 transaction IDs (getTransactions requests, announcements). */
const transactionIdList = () => bytesList(1, { minItems: 1, maxItems: 100 });

/** The engine's custom node-info options (height, maxHeightPrevoted, blockVersion, lastBlockID, legacy). */
export const nodeInfoOptionsSchema: Schema = objectSchema('/nodeInfo/custom', {
  height: { dataType: 'uint32', fieldNumber: 1 },
  maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 2 },
  blockVersion: { dataType: 'uint32', fieldNumber: 3 },
  lastBlockID: { dataType: 'bytes', fieldNumber: 4 },
  legacy: bytesList(5),
});

/** Node info as sent by getNodeInfo answers and postNodeInfo messages (options nested at field 5). */
export const nodeInfoSchema: Schema = objectSchema('/nodeInfo', {
  chainID: { dataType: 'bytes', fieldNumber: 1 },
  networkVersion: { dataType: 'string', fieldNumber: 2 },
  nonce: { dataType: 'string', fieldNumber: 3 },
  advertiseAddress: { dataType: 'boolean', fieldNumber: 4 },
  options: objectField(5, nodeInfoOptionsSchema.properties),
});

/** One entry of a getPeers answer. */
export const peerInfoSchema: Schema = objectSchema('/protocolPeerInfo', {
  ipAddress: { dataType: 'string', fieldNumber: 1 },
  port: { dataType: 'uint32', fieldNumber: 2 },
});

/** getPeers answer: each element is an encoded peerInfo. */
export const getPeersResponseSchema = listSchema('/protocolPeerRequestResponse', 'peers', bytesList(1));

export const getBlocksFromIdRequestSchema = bytesSchema('/lisk/getBlocksFromIdRequest', 'blockId', {
  minLength: ID_LENGTH,
  maxLength: ID_LENGTH,
});

/** Also the answer of getLegacyBlocksFromId; defined with the chain store, whose worker tasks build it too. */
export { getBlocksFromIdResponseSchema } from '../chain/blocks-from-id.js';

export const getHighestCommonBlockRequestSchema = listSchema('/lisk/getHighestCommonBlockRequest', 'ids', idList(1, { minItems: 1 }));

/** `id` is empty when none of the asked IDs is known (bytes `0a00`). */
export const getHighestCommonBlockResponseSchema = bytesSchema('/lisk/getHighestCommonBlockResponse', 'id');

export const getTransactionsRequestSchema = listSchema('/lisk/getTransactionRequest', 'transactionIds', transactionIdList());

export const getTransactionsResponseSchema = listSchema('/lisk/getTransactionsResponse', 'transactions', bytesList(1));

export const getLegacyBlocksFromIdRequestSchema: Schema = objectSchema('/legacy/getBlocksFromIdRequest', {
  blockID: { dataType: 'bytes', fieldNumber: 1, minLength: ID_LENGTH, maxLength: ID_LENGTH },
  snapshotBlockID: { dataType: 'bytes', fieldNumber: 2, minLength: ID_LENGTH, maxLength: ID_LENGTH },
});

export const postBlockSchema = bytesSchema('/lisk/postBlockEvent', 'block');

export const postTransactionsAnnouncementSchema = listSchema(
  '/lisk/postTransactionsAnnouncementSchema',
  'transactionIds',
  transactionIdList(),
);

/** postSingleCommitMessages payload: each element is an encoded singleCommit. Empty lists are normal. */
export const singleCommitsMessageSchema = listSchema('/consensus/singleCommitsNetworkPacket', 'commits', bytesList(1));

export const singleCommitSchema: Schema = objectSchema('/consensus/singleCommit', {
  blockID: { dataType: 'bytes', fieldNumber: 1, minLength: ID_LENGTH, maxLength: ID_LENGTH },
  height: { dataType: 'uint32', fieldNumber: 2 },
  validatorAddress: { dataType: 'bytes', fieldNumber: 3, minLength: 20, maxLength: 20, format: 'lisk32' },
  certificateSignature: { dataType: 'bytes', fieldNumber: 4, minLength: 96, maxLength: 96 },
});
