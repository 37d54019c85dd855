/**
 * getLegacyBlocksFromId `{blockID, snapshotBlockID}`, served from the legacy chain store as lisk-sdk
 * v6.1.0 serves it (`framework/src/engine/legacy/network_endpoint.ts`): peers syncing a bracket
 * walk it downwards from its snapshot block, asking each time for the blocks below the lowest one
 * they hold.
 *
 * - An undecodable or schema-invalid request costs 100 and is answered with an error.
 * - A snapshot block ID of no bracket this node records costs 100 and is answered with lisk-sdk's
 *   database error (`Specified key 02<snapshotBlockID> does not exist`).
 * - blockID = snapshotBlockID starts below the snapshot height; an unknown blockID is answered
 *   with an empty list.
 * - Otherwise the answer holds the stored blocks from the height below blockID's down to the
 *   bracket's start height, highest first, at most 101: lisk-sdk stops at `last − 100` whenever
 *   the start height is below `last − 99` (its comment promises 100). Each block is `{header,
 *   payload}`, the v3 header and transaction bytes. Asked for the blocks below height 0, lisk-sdk
 *   fails to build its height key and answers with that error, at no cost.
 */
import { codec, validate } from '../codec/index.js';
import { PENALTY_BAN } from './constants.js';
import type { ProcedureHandler } from './handlers.js';
import { getBlocksFromIdResponseSchema, getLegacyBlocksFromIdRequestSchema } from './schemas.js';

type MaybePromise<T> = T | Promise<T>;

/** What the handler reads; the legacy chain store (src/legacy-chain) provides it. */
export interface P2pLegacySource {
  bracketInfo(snapshotBlockId: Buffer): MaybePromise<{ readonly startHeight: number; readonly snapshotBlockHeight: number } | undefined>;
  /** The height of a stored block, or undefined. */
  heightOf(blockId: Buffer): MaybePromise<number | undefined>;
  /** The stored blocks with heights in [from, to], highest first, each encoded `{header, payload}`. */
  encodedBlocksBetween(from: number, to: number): MaybePromise<Uint8Array[]>;
}

/** Blocks asked for in one request span heights [last − 100, last] (see the file comment). */
const LEGACY_SPAN = 100;

export function legacyBlocksFromIdHandler(source: P2pLegacySource): ProcedureHandler {
  return async (data, context) => {
    let request: { blockID: Buffer; snapshotBlockID: Buffer };
    try {
      if (data === undefined) throw new Error('The request carries no data');
      request = codec.decode<{ blockID: Buffer; snapshotBlockID: Buffer }>(getLegacyBlocksFromIdRequestSchema, data);
    } catch (error) {
      context.penalize(PENALTY_BAN);
      throw error;
    }
    try {
      validate(getLegacyBlocksFromIdRequestSchema, request);
    } catch (error) {
      context.penalize(PENALTY_BAN);
      throw error;
    }
    const { blockID, snapshotBlockID } = request;
    const bracket = await source.bracketInfo(snapshotBlockID);
    if (bracket === undefined) {
      context.penalize(PENALTY_BAN);
      throw new Error(`Specified key 02${snapshotBlockID.toString('hex')} does not exist`);
    }
    const empty = () => codec.encode(getBlocksFromIdResponseSchema, { blocks: [] });
    let fromHeight: number | undefined;
    try {
      fromHeight = snapshotBlockID.equals(blockID) ? bracket.snapshotBlockHeight : await source.heightOf(blockID);
    } catch {
      return empty();
    }
    if (fromHeight === undefined) return empty();
    const last = fromHeight - 1;
    const first = bracket.startHeight >= last - (LEGACY_SPAN - 1) ? bracket.startHeight : last - LEGACY_SPAN;
    // Below height 0 lisk-sdk's height key cannot be written: its range error is the answer.
    Buffer.alloc(4).writeUIntBE(last, 0, 4);
    return codec.encode(getBlocksFromIdResponseSchema, { blocks: await source.encodedBlocksBetween(first, last) });
  };
}
