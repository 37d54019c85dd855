/**
 * The engine's `chain` namespace (as lisk-sdk 6.1 serves it in engine/endpoint/chain.ts):
 * blocks, transactions, assets and events from the chain store, event proofs, the contradicting-
 * headers check and the generator list. Result shapes and key order are lisk-sdk's. Where Basalt
 * differs on purpose (params checked by schema, limits, not-found messages), the doc comment of
 * the method says so.
 */
import { RESOURCE_NOT_FOUND } from '../error-codes.js';
import { BlockHeader } from '../../chain/block-header.js';
import { areHeadersContradicting } from '../../chain/contradicting-headers.js';
import { RawJson } from '../raw-json.js';
import type { RpcMethod } from '../registry.js';
import type { StateReader } from '../../state/state-view.js';
import { headersRequest, heightRangeRequest, heightRequest, idRequest, idsRequest, proveEventsRequest } from './chain-requests.js';
import { generatorList, type GeneratorListBft } from './generator-list.js';
import { ChainJsonReader, type ChainReader } from './chain-json-reader.js';
import { OffloadedChainReads, type ChainReadOffload } from './chain-read-offload.js';
import { eventProofJsonText } from '../../chain/json/proof-json.js';
import { startBlockJsonWarmUp } from './block-json-warm-up.js';

/**
 * Every chain method with params looks a block, a transaction or a height up, and so can answer
 * -32001 (rpc.discover lists it); comparing two headers looks nothing up.
 */
const LOOKS_NOTHING_UP: ReadonlySet<string> = new Set(['areHeadersContradicting']);
export type { ChainReader } from './chain-json-reader.js';

export interface ChainEndpointLimits {
  /** Most IDs in one getBlocksByIDs / getTransactionsByIDs call. */
  readonly maxIdsPerRequest: number;
  /** Most heights one getBlocksByHeightBetween call may span (to - from + 1). */
  readonly maxHeightSpan: number;
  /** Most query keys in one proveEvents call. */
  readonly maxProofQueries: number;
  /** Bound of the finalized-block JSON cache, in characters (0 disables it). */
  readonly blockCacheChars: number;
  /** Bound of the transaction JSON cache (by ID), in characters (0 disables it). */
  readonly transactionCacheChars: number;
  /** Bound of the finalized-events JSON cache, in characters (0 disables it). */
  readonly eventCacheChars: number;
  /**
   * Newest blocks whose JSON is built once the server listens (block-json-warm-up.ts), within a
   * quarter of blockCacheChars; 0 disables it.
   */
  readonly warmUpBlocks: number;
}

export const CHAIN_ENDPOINT_DEFAULTS: ChainEndpointLimits = {
  maxIdsPerRequest: 100,
  maxHeightSpan: 1000,
  maxProofQueries: 1000,
  blockCacheChars: 32 * 1024 * 1024,
  transactionCacheChars: 8 * 1024 * 1024,
  eventCacheChars: 8 * 1024 * 1024,
  // About 5.7 hours of blocks at Lisk's 10 s: a few MB of JSON, some 100 ms of work at start.
  warmUpBlocks: 2048,
};

export interface ChainEndpointsOptions {
  readonly chainStore: ChainReader;
  readonly bft: GeneratorListBft;
  /** The committed engine state (BFT parameters), read at call time. */
  readonly engineState: () => StateReader;
  /** Unix seconds; injectable so tests can fix "now" for getGeneratorList. */
  readonly now?: () => number;
  readonly limits?: Partial<ChainEndpointLimits>;
  /** Given: long block spans, long ID lists and event proofs are read in the worker pool. */
  readonly offload?: ChainReadOffload;
}

/** The `chain_*` methods plus the hook that keeps their cache right when blocks are reverted. */
export interface ChainEndpoints {
  readonly methods: RpcMethod[];
  /**
   * Forgets cached answers for heights above `height`. Finalized answers are never reverted and
   * the others are checked against the chain on every read, so a normal revert never needs it;
   * call it after anything that rewrites stored blocks anyway.
   */
  dropCacheAbove(height: number): void;
  /** Forgets cached events at and below `height`: call it after pruning them. */
  dropEventsUpTo(height: number): void;
  /**
   * Starts filling the block cache with the newest blocks, while no request arrives (see
   * block-json-warm-up.ts); returns the function that stops it.
   */
  warmUp(onError: (error: unknown) => void, messagesReceived?: () => number): () => void;
  /**
   * Requests for the hot path's priming before the server listens (hot-path-priming.ts): the
   * newest blocks by height, whose JSON is built and cached as the warm-up would, and the last
   * block.
   */
  primingRequests(): string[];
}

/** Blocks, from the tip down, that the priming requests ask for. */
const PRIMING_BLOCKS = 64;

/** Builds the `chain_*` methods over the given chain pieces. */
export function createChainEndpoints(options: ChainEndpointsOptions): ChainEndpoints {
  const limits = { ...CHAIN_ENDPOINT_DEFAULTS, ...options.limits };
  const reader = new ChainJsonReader(options.chainStore, limits);
  const offloaded = options.offload && new OffloadedChainReads(reader, options.chainStore, options.offload);
  // A pool answer is a promise, a main-thread one a string: both become RawJson.
  const raw = (json: string | Promise<string>): RawJson | Promise<RawJson> =>
    typeof json === 'string' ? new RawJson(json) : json.then((text) => new RawJson(text));
  const { chainStore, bft, engineState } = options;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const method = (name: string, invoke: RpcMethod['invoke'], request?: object): RpcMethod => ({
    namespace: 'chain',
    name,
    request,
    ...(request !== undefined && !LOOKS_NOTHING_UP.has(name) ? { errors: [RESOURCE_NOT_FOUND] } : {}),
    invoke,
  });

  const methods: RpcMethod[] = [
    method('getBlockByID', (params) => new RawJson(reader.blockJsonById(params.id as string)), idRequest),
    method(
      'getBlocksByIDs',
      (params) => raw((offloaded ?? reader).blocksJsonByIds(params.ids as string[])),
      idsRequest(limits.maxIdsPerRequest),
    ),
    method('getBlockByHeight', (params) => new RawJson(reader.blockJsonAt(params.height as number)), heightRequest),
    method(
      'getBlocksByHeightBetween',
      (params) => raw((offloaded ?? reader).blocksJsonBetween(params.from as number, params.to as number, limits.maxHeightSpan)),
      heightRangeRequest,
    ),
    method('getTransactionByID', (params) => new RawJson(reader.transactionJsonById(params.id as string)), idRequest),
    method(
      'getTransactionsByIDs',
      (params) => new RawJson(reader.transactionsJsonByIds(params.ids as string[])),
      idsRequest(limits.maxIdsPerRequest),
    ),
    method(
      'getTransactionsByHeight',
      (params) => reader.blockAt(params.height as number).transactions.map((tx) => tx.toJSON()),
      heightRequest,
    ),
    method('getAssetsByHeight', (params) => reader.blockAt(params.height as number).assets.toJSON(), heightRequest),
    method('getLastBlock', () => new RawJson(reader.lastBlockJson())),
    method('getEvents', (params) => new RawJson(reader.eventsJsonAt(params.height as number)), heightRequest),
    method(
      'proveEvents',
      (params) => {
        const height = params.height as number;
        const queries = params.queries as string[];
        return raw(offloaded ? offloaded.eventProofJson(height, queries) : eventProofJsonText(reader.eventsAt(height), queries));
      },
      proveEventsRequest(limits.maxProofQueries),
    ),
    method(
      'areHeadersContradicting',
      (params) => {
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
  return {
    methods,
    dropCacheAbove: (height) => reader.dropCacheAbove(height),
    dropEventsUpTo: (height) => reader.dropEventsUpTo(height),
    warmUp: (onError, messagesReceived) =>
      startBlockJsonWarmUp(
        reader,
        chainStore,
        { blocks: limits.warmUpBlocks, chars: limits.blockCacheChars / 4 },
        onError,
        messagesReceived,
      ),
    primingRequests: () => {
      const tip = chainStore.tipHeight();
      const lowest = Math.max(chainStore.genesisHeight(), tip - PRIMING_BLOCKS + 1);
      // Both shapes clients send: with params, and without (the object shapes V8 then expects).
      const bodies = [rpcRequestBody('chain_getLastBlock', {}), JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chain_getLastBlock' })];
      for (let height = tip; height >= lowest; height -= 1) bodies.push(rpcRequestBody('chain_getBlockByHeight', { height }));
      return bodies;
    },
  };
}

function rpcRequestBody(method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}
