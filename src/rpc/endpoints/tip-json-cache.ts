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
 * same block, so its answers are still right).
 */
import type { ChainStore } from '../../chain/chain-store.js';

/** A stored block, named by ID and height. */
export interface BlockRef {
  readonly id: Buffer;
  readonly height: number;
}

/** Whether `ref` is still stored at its height: the chain up to it is unchanged. */
export function isStillStored(store: Pick<ChainStore, 'getHeightById'>, ref: BlockRef): boolean {
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
  get(store: Pick<ChainStore, 'getHeightById'>, tipHeight: number): string | undefined {
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
