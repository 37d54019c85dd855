/**
 * The engine's `chain` namespace (rpc.md §3.2 as lisk-sdk 6.1 serves it; issue 6 "Endpoints"):
 * blocks, transactions, assets and events from the chain store, event proofs, the contradicting-
 * headers check and the generator list. Result shapes and key order are lisk-sdk's. Where Basalt
 * differs on purpose (params checked by schema, limits, not-found messages), the doc comment of
 * the method says so.
 */
import { BlockHeader } from '../../chain/block-header.js';
import type { Block } from '../../chain/block.js';
import type { ChainStore } from '../../chain/chain-store.js';
import { areHeadersContradicting } from '../../chain/contradicting-headers.js';
import { eventToJSON, type EventProps } from '../../chain/event.js';
import type { Transaction, TransactionJSON } from '../../chain/transaction.js';
import { InvalidParamsError, NotFoundError } from '../../errors.js';
import { RawJson } from '../raw-json.js';
import type { RpcMethod } from '../registry.js';
import type { StateReader } from '../../state/state-view.js';
import {
  headersRequest,
  heightRangeRequest,
  heightRequest,
  idRequest,
  idsRequest,
  proveEventsRequest,
} from './chain-requests.js';
import { proveEvents } from './event-proof.js';
import { generatorList, type GeneratorListBft } from './generator-list.js';
import { HeightJsonCache } from './height-json-cache.js';
import { smtProofToJSON } from './proof-json.js';

/** What the chain endpoints read from the chain store (ChainStore provides it). */
export type ChainReader = Pick<
  ChainStore,
  | 'tipHeight'
  | 'genesisHeight'
  | 'finalizedHeight'
  | 'getHeightById'
  | 'getBlockByHeight'
  | 'getTransaction'
  | 'getEvents'
>;

export interface ChainEndpointLimits {
  /** Most IDs in one getBlocksByIDs / getTransactionsByIDs call. */
  readonly maxIdsPerRequest: number;
  /** Most heights one getBlocksByHeightBetween call may span (to - from + 1). */
  readonly maxHeightSpan: number;
  /** Most query keys in one proveEvents call. */
  readonly maxProofQueries: number;
  /** Bound of the finalized-block JSON cache, in characters (0 disables it). */
  readonly blockCacheChars: number;
}

export const CHAIN_ENDPOINT_DEFAULTS: ChainEndpointLimits = {
  maxIdsPerRequest: 100,
  maxHeightSpan: 1000,
  maxProofQueries: 1000,
  blockCacheChars: 32 * 1024 * 1024,
};

export interface ChainEndpointsOptions {
  readonly chainStore: ChainReader;
  readonly bft: GeneratorListBft;
  /** The committed engine state (BFT parameters), read at call time. */
  readonly engineState: () => StateReader;
  /** Unix seconds; injectable so tests can fix "now" for getGeneratorList. */
  readonly now?: () => number;
  readonly limits?: Partial<ChainEndpointLimits>;
}

/** The `chain_*` methods plus the hook that keeps their cache right when blocks are reverted. */
export interface ChainEndpoints {
  readonly methods: RpcMethod[];
  /**
   * Forgets cached answers for heights above `height`. Only finalized blocks are cached, so a
   * normal revert never needs it; call it after anything that rewrites stored blocks anyway.
   */
  dropCacheAbove(height: number): void;
}

/** Builds the `chain_*` methods (rpc.md §3.2) over the given chain pieces. */
export function createChainEndpoints(options: ChainEndpointsOptions): ChainEndpoints {
  const limits = { ...CHAIN_ENDPOINT_DEFAULTS, ...options.limits };
  const reader = new ChainJsonReader(options.chainStore, new HeightJsonCache(limits.blockCacheChars));
  const { chainStore, bft, engineState } = options;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const method = (name: string, invoke: RpcMethod['invoke'], request?: object): RpcMethod => ({
    namespace: 'chain',
    name,
    request,
    invoke,
  });

  const methods: RpcMethod[] = [
    method('getBlockByID', params => new RawJson(reader.blockJsonById(params.id as string)), idRequest),
    method('getBlocksByIDs', params => reader.blocksJsonByIds(params.ids as string[]), idsRequest(limits.maxIdsPerRequest)),
    method('getBlockByHeight', params => new RawJson(reader.blockJsonAt(params.height as number)), heightRequest),
    method(
      'getBlocksByHeightBetween',
      params => reader.blocksJsonBetween(params.from as number, params.to as number, limits.maxHeightSpan),
      heightRangeRequest,
    ),
    method('getTransactionByID', params => reader.transactionById(params.id as string).toJSON(), idRequest),
    method('getTransactionsByIDs', params => reader.transactionsByIds(params.ids as string[]), idsRequest(limits.maxIdsPerRequest)),
    method(
      'getTransactionsByHeight',
      params => reader.blockAt(params.height as number).transactions.map(tx => tx.toJSON()),
      heightRequest,
    ),
    method('getAssetsByHeight', params => reader.blockAt(params.height as number).assets.toJSON(), heightRequest),
    method('getLastBlock', () => new RawJson(reader.blockJsonAt(chainStore.tipHeight()))),
    method('getEvents', params => reader.eventsAt(params.height as number).map(eventToJSON), heightRequest),
    method(
      'proveEvents',
      params => {
        const queries = (params.queries as string[]).map(query => Buffer.from(query, 'hex'));
        return smtProofToJSON(proveEvents(reader.eventsAt(params.height as number), queries));
      },
      proveEventsRequest(limits.maxProofQueries),
    ),
    method(
      'areHeadersContradicting',
      params => {
        const header1 = BlockHeader.fromBytes(Buffer.from(params.header1 as string, 'hex'));
        const header2 = BlockHeader.fromBytes(Buffer.from(params.header2 as string, 'hex'));
        return { valid: areHeadersContradicting(header1, header2) };
      },
      headersRequest,
    ),
    method('getGeneratorList', () => {
      const tip = chainStore.tipHeight();
      // BFT counts no block before the first one after genesis: lisk-sdk then looks at height 0.
      const lastBftHeight = tip === chainStore.genesisHeight() ? 0 : tip;
      return generatorList(bft, engineState(), lastBftHeight, now());
    }),
  ];
  return { methods, dropCacheAbove: height => reader.dropCacheAbove(height) };
}

/** Reads blocks, transactions and events for the endpoints, serving finalized blocks from the cache. */
class ChainJsonReader {
  constructor(
    private readonly store: ChainReader,
    private readonly cache: HeightJsonCache,
  ) {}

  /** The block JSON at `height`; NotFoundError naming the height and the chain's bounds. */
  blockJsonAt(height: number): string {
    // A cached height is finalized, hence stored: the hot path skips the bound reads.
    const cached = this.cache.get(height);
    if (cached !== undefined) return cached;
    this.requireStoredHeight(height);
    return this.storedBlockJson(height);
  }

  blockJsonById(idHex: string): string {
    const height = this.store.getHeightById(Buffer.from(idHex, 'hex'));
    if (height === undefined) throw new NotFoundError(`Block with ID ${idHex} does not exist.`);
    return this.storedBlockJson(height);
  }

  /**
   * As lisk-sdk: the blocks of the leading known IDs, stopping silently at the first unknown one
   * (a client that asks for N blocks learns which are missing from the answer's length).
   */
  blocksJsonByIds(idsHex: readonly string[]): RawJson {
    const parts: string[] = [];
    for (const idHex of idsHex) {
      const height = this.store.getHeightById(Buffer.from(idHex, 'hex'));
      if (height === undefined) break;
      parts.push(this.storedBlockJson(height));
    }
    return new RawJson(`[${parts.join(',')}]`);
  }

  /**
   * Blocks from `to` down to `from` (lisk-sdk's order); heights outside the chain are skipped and
   * `from > to` gives `[]`, as in lisk-sdk. Unlike lisk-sdk, a request may span at most `maxSpan`
   * heights, counted on the heights asked for, so the answer to a request never depends on the
   * chain's length.
   */
  blocksJsonBetween(from: number, to: number, maxSpan: number): RawJson {
    const span = to - from + 1;
    if (span > maxSpan) {
      throw new InvalidParamsError(
        `Invalid params: heights ${from} to ${to} span ${span} blocks; at most ${maxSpan} may be asked at once.`,
      );
    }
    const lowest = Math.max(from, this.store.genesisHeight());
    const highest = Math.min(to, this.store.tipHeight());
    const parts: string[] = [];
    for (let height = highest; height >= lowest; height -= 1) parts.push(this.storedBlockJson(height));
    return new RawJson(`[${parts.join(',')}]`);
  }

  blockAt(height: number): Block {
    this.requireStoredHeight(height);
    return this.store.getBlockByHeight(height);
  }

  transactionById(idHex: string): Transaction {
    const transaction = this.store.getTransaction(Buffer.from(idHex, 'hex'));
    if (transaction === undefined) throw new NotFoundError(`Transaction with ID ${idHex} does not exist.`);
    return transaction;
  }

  /** As lisk-sdk: the leading known transactions, stopping silently at the first unknown ID. */
  transactionsByIds(idsHex: readonly string[]): TransactionJSON[] {
    const found: TransactionJSON[] = [];
    for (const idHex of idsHex) {
      const transaction = this.store.getTransaction(Buffer.from(idHex, 'hex'));
      if (transaction === undefined) break;
      found.push(transaction.toJSON());
    }
    return found;
  }

  /**
   * The events of the block at `height`; `[]` when they were pruned (system.keepEventsForHeights),
   * as lisk-sdk answers. A height outside the chain is a NotFoundError (lisk-sdk answers `[]`).
   */
  eventsAt(height: number): EventProps[] {
    this.requireStoredHeight(height);
    return this.store.getEvents(height) ?? [];
  }

  dropCacheAbove(height: number): void {
    this.cache.dropAbove(height);
  }

  private requireStoredHeight(height: number): void {
    const tip = this.store.tipHeight();
    if (height > tip) throw new NotFoundError(`No block at height ${height} (the tip is at ${tip}).`);
    const genesis = this.store.genesisHeight();
    if (height < genesis) throw new NotFoundError(`No block at height ${height} (the chain starts at height ${genesis}).`);
  }

  /** JSON of a block known to be stored; finalized blocks are served from and kept in the cache. */
  private storedBlockJson(height: number): string {
    const cached = this.cache.get(height);
    if (cached !== undefined) return cached;
    const json = JSON.stringify(this.store.getBlockByHeight(height).toJSON());
    // Only finalized blocks are immutable: a block above them can still be reverted and replaced.
    if (height <= this.store.finalizedHeight()) this.cache.set(height, json);
    return json;
  }
}
