/**
 * Cache entries that are only right while a given block is still on the chain: the tip block's
 * JSON for chain_getLastBlock, and transactions read while that block was the tip.
 *
 * Why a check on every read instead of events: blocks are stored and deleted by several paths
 * (generation, the block receiver's fork switch, replay, a failed tie break restoring the old
 * tip), and an answer kept by a missed event would serve a reverted block. "Block `id` is still
 * stored at `height`" is one LMDB read (the ID index), and it vouches for the whole chain up to
 * `height`, since every block commits to its parent's ID: if it holds, nothing at or below
 * `height` was deleted since the entry was made (a block deleted and then stored again is the
 * same block, so its answers are still right). Cheaper still, and as safe: the chain store counts
 * the blocks it deletes, so while that count is the one an entry saw, no read is needed at all;
 * it is a count kept where blocks are deleted, not an event a listener could miss.
 */
import type { ChainStore } from '../../chain/chain-store.js';

/** A stored block, named by ID and height. */
export interface BlockRef {
  readonly id: Buffer;
  readonly height: number;
  /**
   * The store's `blockDeletions` when the block was read on this thread: while that count is
   * unchanged, no block was deleted since, and the ID index need not be read.
   */
  readonly deletions?: number;
}

/** What the check reads of the chain store. */
export type StoredBlockCheck = Pick<ChainStore, 'getHeightById' | 'blockDeletions'>;

/** Whether `ref` is still stored at its height: the chain up to it is unchanged. */
export function isStillStored(store: StoredBlockCheck, ref: BlockRef): boolean {
  if (ref.deletions !== undefined && ref.deletions === store.blockDeletions) return true;
  return store.getHeightById(ref.id) === ref.height;
}

/**
 * The tip block's JSON text, replaced when another block becomes the tip and never served once
 * the block it holds was deleted (chain_getLastBlock; the tip is not final, so the height cache
 * cannot keep it).
 */
export class TipJsonCache {
  private entry: { readonly tip: BlockRef; readonly json: string } | undefined;

  /** The cached JSON when the block it holds is the tip at `tipHeight`. */
  get(store: StoredBlockCheck, tipHeight: number): string | undefined {
    const entry = this.entry;
    if (entry === undefined || entry.tip.height !== tipHeight) return undefined;
    if (isStillStored(store, entry.tip)) return entry.json;
    this.entry = undefined;
    return undefined;
  }

  /** The block the cached JSON belongs to, when there is one. */
  get tip(): BlockRef | undefined {
    return this.entry?.tip;
  }

  set(tip: BlockRef, json: string): void {
    this.entry = { tip, json };
  }

  dropAbove(height: number): void {
    if (this.entry !== undefined && this.entry.tip.height > height) this.entry = undefined;
  }
}
