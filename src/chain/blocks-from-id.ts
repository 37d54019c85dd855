/**
 * The answer to the P2P procedure getBlocksFromId, built from the chain store (lisk-sdk
 * `framework/src/engine/consensus/network_endpoint.ts` handleRPCGetBlocksFromId, schema from
 * `framework/src/engine/consensus/schema.ts`). The P2P procedures (main thread) and the worker
 * task that builds the same answer off it both use this file, so the two give the same bytes; it
 * sits here, below both, because a worker thread may not load the P2P room.
 */
import { objectSchema, codec, type Schema } from '../codec/index.js';
import type { ChainStore } from './chain-store.js';
import { StoreError } from '../errors.js';

/** Blocks after the requested one per getBlocksFromId answer (about 1.5 MB of 15 kB blocks). */
export const BLOCKS_PER_ANSWER = 103;

/** `{blocks: bytes[] #1}`: encoded blocks, newest first. Also the answer of getLegacyBlocksFromId. */
export const getBlocksFromIdResponseSchema: Schema = objectSchema('/lisk/getBlocksFromIdResponse', {
  blocks: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } },
});

/** The encoded block at `height`, from the stored bytes; a missing one is a store inconsistency. */
export function encodedBlockAt(chainStore: ChainStore, height: number): Buffer {
  const bytes = chainStore.getEncodedBlockByHeight(height);
  if (!bytes) throw new StoreError(`Store inconsistency: the block at height ${height} is missing.`);
  return bytes;
}

/** The encoded blocks with heights in [from, to] that `chainStore` holds, ascending. */
export function encodedBlocksBetween(chainStore: ChainStore, from: number, to: number): Buffer[] {
  const blocks: Buffer[] = [];
  const last = Math.min(to, chainStore.tipHeight());
  for (let height = Math.max(from, chainStore.genesisHeight()); height <= last; height += 1) {
    blocks.push(encodedBlockAt(chainStore, height));
  }
  return blocks;
}

/**
 * The answer's bytes for `ascending`, the encoded blocks after the requested one in height order:
 * lisk-sdk reads its height index in reverse, so the newest block comes first.
 */
export function encodeBlocksFromIdAnswer(ascending: readonly Uint8Array[]): Buffer {
  return codec.encode(getBlocksFromIdResponseSchema, { blocks: [...ascending].reverse() });
}
