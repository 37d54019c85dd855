/**
 * Reads blocks, transactions and events for the `chain_*` endpoints and serves the answers that
 * cannot change as stored JSON text (pre-serialized JSON is about 2x faster
 * than building it per request, measured):
 * - blocks and events at or below the finalized height, by height (finalized blocks are never
 *   reverted);
 * - blocks above it, by height with the block's ID, served only while that block is still stored
 *   (one ID-index read: a public node is asked for its newest blocks most, and a 94-transfer
 *   block's JSON costs about half a millisecond to build);
 * - the tip block, while it is the tip (TipJsonCache: checked against the ID index on each read);
 * - transactions by ID: a transaction's JSON is a function of its ID, so only its presence can
 *   change, and an entry is served only while the tip it was read under is still stored.
 * Nothing above the finalized height outlives a deleted block: those entries are checked on read.
 */
import type { Block } from '../../chain/block.js';
import type { ChainStore } from '../../chain/chain-store.js';
import type { EventProps } from '../../chain/event.js';
import { InvalidParamsError, NotFoundError, StoreError } from '../../errors.js';
import {
  blockJsonText,
  blocksBetweenJsonText,
  eventsJsonText,
  leadingKnownJsonText,
  transactionJsonText,
} from '../../chain/json/chain-json-text.js';
import { HeightJsonCache } from './height-json-cache.js';
import { JsonLru } from './json-lru.js';
import { isStillStored, TipJsonCache, type BlockRef } from './tip-json-cache.js';

/** What the chain endpoints read from the chain store (ChainStore provides it). */
export type ChainReader = Pick<
  ChainStore,
  | 'tipHeight'
  | 'genesisHeight'
  | 'finalizedHeight'
  | 'getHeightById'
  | 'blockDeletions'
  | 'getHeaderByHeight'
  | 'getBlockByHeight'
  | 'getTransaction'
  | 'getEvents'
>;

/** Bounds of the caches, in characters of JSON text (0 disables one). */
export interface ChainJsonCacheLimits {
  readonly blockCacheChars: number;
  readonly transactionCacheChars: number;
  readonly eventCacheChars: number;
}

/** A block above the finalized height, as it was when its JSON was built. */
interface UnfinalizedBlockEntry {
  readonly json: string;
  readonly block: BlockRef;
}

/** Share of the block cache's budget for blocks above the finalized height (a few rounds of them). */
const UNFINALIZED_SHARE = 4;

interface TransactionEntry {
  readonly json: string;
  /** The tip when the transaction was read: while it is stored, so is the transaction. */
  readonly anchor: BlockRef;
}

export class ChainJsonReader {
  private readonly blocks: HeightJsonCache;
  private readonly unfinalizedBlocks: JsonLru<number, UnfinalizedBlockEntry>;
  private readonly events: HeightJsonCache;
  private readonly transactions: JsonLru<string, TransactionEntry>;
  private readonly tip = new TipJsonCache();
  /**
   * The highest finalized height read so far. Finality only grows, so a height at or below it is
   * final without another read (a hit on a recent block must not pay for one).
   */
  private knownFinalized = -1;

  constructor(
    private readonly store: ChainReader,
    limits: ChainJsonCacheLimits,
  ) {
    this.blocks = new HeightJsonCache(limits.blockCacheChars);
    this.unfinalizedBlocks = new JsonLru(Math.floor(limits.blockCacheChars / UNFINALIZED_SHARE), (entry) => entry.json.length);
    this.events = new HeightJsonCache(limits.eventCacheChars);
    this.transactions = new JsonLru(limits.transactionCacheChars, (entry) => entry.json.length);
  }

  /** The block JSON at `height`; NotFoundError naming the height and the chain's bounds. */
  blockJsonAt(height: number): string {
    // A cached height is finalized, hence stored: the hot path skips the bound reads.
    const cached = this.blocks.get(height);
    if (cached !== undefined) return cached;
    // A recent block whose entry is still stored is within the chain's bounds: its one ID-index
    // read vouches for it, and the bound reads (tip, genesis) can wait for a miss.
    const recent = this.recentBlockJson(height);
    if (recent !== undefined) return recent;
    this.requireStoredHeight(height);
    return this.storedBlockJson(height);
  }

  /**
   * The cached JSON of the block above the finalized height at `height` while that block is still
   * stored; moved to the finalized cache once its height is known to be final (same bytes: same
   * block).
   */
  private recentBlockJson(height: number): string | undefined {
    const entry = this.unfinalizedBlocks.get(height);
    if (entry === undefined || !isStillStored(this.store, entry.block)) return undefined;
    if (height <= this.knownFinalized) {
      this.unfinalizedBlocks.delete(height);
      this.blocks.set(height, entry.json);
    }
    return entry.json;
  }

  /** chain_getLastBlock: the tip's JSON, built once per tip. */
  lastBlockJson(): string {
    const tipHeight = this.store.tipHeight();
    const cached = this.tip.get(this.store, tipHeight);
    if (cached !== undefined) return cached;
    const deletions = this.store.blockDeletions;
    const block = this.store.getBlockByHeight(tipHeight);
    const json = this.blocks.get(tipHeight) ?? blockJsonText(block);
    this.tip.set({ id: block.header.id, height: tipHeight, deletions }, json);
    return json;
  }

  blockJsonById(idHex: string): string {
    const height = this.store.getHeightById(Buffer.from(idHex, 'hex'));
    if (height === undefined) throw new NotFoundError(`Block with ID ${idHex} does not exist.`);
    return this.storedBlockJson(height);
  }

  /** As lisk-sdk: the blocks of the leading known IDs (see leadingKnownJsonText). */
  blocksJsonByIds(idsHex: readonly string[]): string {
    return leadingKnownJsonText(idsHex, (idHex) => {
      const height = this.store.getHeightById(Buffer.from(idHex, 'hex'));
      return height === undefined ? undefined : this.storedBlockJson(height);
    });
  }

  /**
   * Blocks from `to` down to `from` (lisk-sdk's order); heights outside the chain are skipped and
   * `from > to` gives `[]`, as in lisk-sdk. Unlike lisk-sdk, a request may span at most `maxSpan`
   * heights, counted on the heights asked for, so the answer never depends on the chain's length.
   */
  blocksJsonBetween(from: number, to: number, maxSpan: number): string {
    requireSpan(from, to, maxSpan);
    const { store } = this;
    return blocksBetweenJsonText(from, to, store.genesisHeight(), store.tipHeight(), (height) => this.storedBlockJson(height));
  }

  blockAt(height: number): Block {
    this.requireStoredHeight(height);
    return this.store.getBlockByHeight(height);
  }

  transactionJsonById(idHex: string): string {
    const json = this.knownTransactionJson(idHex);
    if (json === undefined) throw new NotFoundError(`Transaction with ID ${idHex} does not exist.`);
    return json;
  }

  /** As lisk-sdk: the leading known transactions, stopping silently at the first unknown ID. */
  transactionsJsonByIds(idsHex: readonly string[]): string {
    return leadingKnownJsonText(idsHex, (idHex) => this.knownTransactionJson(idHex));
  }

  /**
   * The events of the block at `height`; `[]` when they were pruned (system.keepEventsForHeights),
   * as lisk-sdk answers. A height outside the chain is a NotFoundError (lisk-sdk answers `[]`).
   */
  eventsAt(height: number): EventProps[] {
    this.requireStoredHeight(height);
    return this.store.getEvents(height) ?? [];
  }

  /**
   * eventsAt as chain_getEvents answers it; finalized heights from the cache. Whoever prunes
   * events (keepEventsForHeights: the node, after each commit) calls dropEventsUpTo for them.
   */
  eventsJsonAt(height: number): string {
    const cached = this.events.get(height);
    if (cached !== undefined) return cached;
    const json = eventsJsonText(this.eventsAt(height));
    if (height <= this.store.finalizedHeight()) this.events.set(height, json);
    return json;
  }

  /** A finalized block's cached JSON, without reading the store. */
  cachedBlockJson(height: number): string | undefined {
    return this.blocks.get(height);
  }

  /** Keeps a block's JSON built elsewhere (a worker) when `height` is at or below `finalizedHeight`. */
  keepBlockJson(height: number, json: string, finalizedHeight: number): void {
    if (height <= finalizedHeight) this.blocks.set(height, json);
  }

  /**
   * Builds and keeps the JSON of the stored block at `height` unless a cache holds it already, as
   * a request for it would (the warm-up at start, block-json-warm-up.ts).
   */
  warmBlockJson(height: number): void {
    if (this.blocks.has(height) || this.unfinalizedBlocks.has(height)) return;
    this.storedBlockJson(height);
  }

  /** Characters of block JSON the caches hold (finalized and not). */
  get cachedBlockChars(): number {
    return this.blocks.chars + this.unfinalizedBlocks.chars;
  }

  dropEventsUpTo(height: number): void {
    this.events.deleteWhere((cachedHeight) => cachedHeight <= height);
  }

  dropCacheAbove(height: number): void {
    this.blocks.dropAbove(height);
    this.unfinalizedBlocks.deleteWhere((cachedHeight) => cachedHeight > height);
    this.events.dropAbove(height);
    this.tip.dropAbove(height);
    this.transactions.deleteWhere((_id, entry) => entry.anchor.height > height);
  }

  private knownTransactionJson(idHex: string): string | undefined {
    const cached = this.transactions.get(idHex);
    if (cached !== undefined) {
      if (isStillStored(this.store, cached.anchor)) return cached.json;
      this.transactions.delete(idHex);
    }
    // The anchor is read before the transaction: both come from the same committed chain, as
    // nothing writes between two synchronous reads on this thread.
    const anchor = this.tipRef();
    const transaction = this.store.getTransaction(Buffer.from(idHex, 'hex'));
    if (transaction === undefined) return undefined;
    const json = transactionJsonText(transaction);
    this.transactions.set(idHex, { json, anchor });
    return json;
  }

  /** The tip block, for a request answered elsewhere (a worker) as of this tip. */
  tipRef(): BlockRef {
    const height = this.store.tipHeight();
    const cached = this.tip.tip;
    if (cached !== undefined && cached.height === height && isStillStored(this.store, cached)) return cached;
    const deletions = this.store.blockDeletions;
    const header = this.store.getHeaderByHeight(height);
    if (header === undefined) throw new StoreError(`Store inconsistency: the tip header at ${height} is missing.`);
    return { id: header.id, height, deletions };
  }

  /** NotFoundError naming the height and the chain's bounds unless `height` is stored. */
  requireStoredHeight(height: number): void {
    const tip = this.store.tipHeight();
    if (height > tip) throw new NotFoundError(`No block at height ${height} (the tip is at ${tip}).`);
    const genesis = this.store.genesisHeight();
    if (height < genesis) throw new NotFoundError(`No block at height ${height} (the chain starts at height ${genesis}).`);
  }

  /** JSON of a block known to be stored; finalized blocks are served from and kept in the cache. */
  private storedBlockJson(height: number): string {
    const cached = this.blocks.get(height) ?? this.recentBlockJson(height);
    if (cached !== undefined) return cached;
    this.knownFinalized = this.store.finalizedHeight();
    const finalized = height <= this.knownFinalized;
    const deletions = this.store.blockDeletions;
    const block = this.store.getBlockByHeight(height);
    const json = blockJsonText(block);
    // Only finalized blocks are immutable: a block above them can still be reverted and replaced,
    // so its entry names the block and is checked on every read (by the deletion count first).
    if (finalized) this.blocks.set(height, json);
    else this.unfinalizedBlocks.set(height, { json, block: { id: block.header.id, height, deletions } });
    return json;
  }
}

/** The span limit of getBlocksByHeightBetween (InvalidParamsError beyond it). */
export function requireSpan(from: number, to: number, maxSpan: number): void {
  const span = to - from + 1;
  if (span > maxSpan) {
    throw new InvalidParamsError(`Invalid params: heights ${from} to ${to} span ${span} blocks; at most ${maxSpan} may be asked at once.`);
  }
}
