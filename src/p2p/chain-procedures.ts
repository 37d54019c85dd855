/**
 * The block and transaction procedures a node serves to its peers, over whatever holds the chain
 * (`framework/src/engine/consensus/network_endpoint.ts`, `engine/generator/network_endpoint.ts`).
 * The node plugs its chain store in through `P2pChainSource`; tests use a list of encoded blocks.
 *
 * - getLastBlock: the tip's encoded block, not wrapped.
 * - getBlocksFromId `{blockId}`: the blocks at heights h+1 … h+103 after the given block, newest
 *   first (lisk-sdk reads its height index in reverse); an unknown ID is an error answer without
 *   penalty; an undecodable or invalid request costs 100.
 * - getHighestCommonBlock `{ids}`: the known ID of greatest height, or an empty ID (`0a00`); an
 *   undecodable request is only an error answer, a schema-invalid one costs 100, duplicate IDs
 *   cost 100 but are still answered.
 * - getTransactions `{transactionIds}?`: without data up to 100 processable pool transactions;
 *   with IDs (1–100, unique) the known ones. Undecodable: error answer; invalid or duplicates: 100.
 */
import { BLOCKS_PER_ANSWER, encodeBlocksFromIdAnswer } from '../chain/blocks-from-id.js';
import { codec, validate } from '../codec/index.js';
import { PENALTY_BAN } from './constants.js';
import { EncodedPayload } from './envelopes.js';
import type { P2pCallContext, ProcedureHandler, ServedProcedure } from './handlers.js';
import {
  getBlocksFromIdRequestSchema,
  getHighestCommonBlockRequestSchema,
  getHighestCommonBlockResponseSchema,
  getTransactionsRequestSchema,
  getTransactionsResponseSchema,
} from './schemas.js';

export { BLOCKS_PER_ANSWER };
/** Transactions per getTransactions answer (lisk-sdk DEFAULT_RELEASE_LIMIT). */
export const TRANSACTIONS_PER_ANSWER = 100;

type MaybePromise<T> = T | Promise<T>;

export interface P2pChainSource {
  /** The encoded tip block. */
  lastBlock(): MaybePromise<Uint8Array>;
  /** The height of the block with this ID, or undefined when it is not in the chain. */
  heightOf(blockId: Buffer): MaybePromise<number | undefined>;
  /** The encoded blocks with heights in [from, to] that exist, ascending. */
  blocksBetween(from: number, to: number): MaybePromise<Uint8Array[]>;
  /**
   * The finalized height: getBlocksFromId answers that lie wholly at or below it can never change,
   * so they are kept in their base64 form and served again from memory. Without it nothing is kept.
   */
  finalizedHeight?(): number;
  /**
   * The tip block's ID. With it, getBlocksFromId answers above the finalized height are kept too,
   * as long as the tip they were built at is the tip: an ID names its whole chain, so the answer
   * is the same while the tip is. Without it they are built for every request.
   */
  tipId?(): Buffer;
}

/**
 * Builds getBlocksFromId answers away from the network thread: up to 103 blocks of some 15 kB
 * read, encoded and turned into base64 would otherwise hold up everything else the thread serves.
 * `blockId` is known, at `height`, when it is called. Undefined means it could not (the chain
 * moved under it, no worker was available): the procedure then builds the answer itself, so the
 * peer gets the same answer either way.
 */
export type BlocksFromIdReader = (blockId: Buffer, height: number) => Promise<EncodedPayload | undefined>;

export interface ChainProceduresOptions {
  /** Without it, getBlocksFromId answers are built on the calling thread. */
  readonly blocksFromIdReader?: BlocksFromIdReader;
}

/** Base64 text kept for finalized getBlocksFromId answers (many peers sync through the same ranges). */
const ANSWER_CACHE_CHARS = 64 * 1024 * 1024;
/**
 * Base64 text kept for answers above the finalized height, dropped whenever the tip changes: the
 * ranges up to the tip are a few, but a peer may ask from any block.
 */
const TIP_ANSWER_CACHE_CHARS = 16 * 1024 * 1024;

export interface P2pTransactionSource {
  /** Up to `limit` encoded transactions the pool would include in a block. */
  processable(limit: number): MaybePromise<Uint8Array[]>;
  /** The encoded transactions among `ids` that the pool or the chain holds (unknown ones skipped). */
  byIds(ids: Buffer[]): MaybePromise<Uint8Array[]>;
}

/** An empty pool: getTransactions answers an empty list. */
export const emptyTransactionSource: P2pTransactionSource = { processable: () => [], byIds: () => [] };

function decodeOrThrow<T>(
  schema: Parameters<typeof codec.decode>[0],
  data: Buffer | undefined,
  context: P2pCallContext,
  penalty: number,
): T {
  try {
    if (data === undefined) throw new Error('The request carries no data');
    return codec.decode<T>(schema, data);
  } catch (error) {
    if (penalty > 0) context.penalize(penalty);
    throw error;
  }
}

function validateOrThrow(schema: object, value: unknown, context: P2pCallContext): void {
  try {
    validate(schema, value);
  } catch (error) {
    context.penalize(PENALTY_BAN);
    throw error;
  }
}

const hasDuplicates = (ids: readonly Buffer[]): boolean => new Set(ids.map((id) => id.toString('hex'))).size !== ids.length;

export function chainProcedures(
  chain: P2pChainSource,
  transactions: P2pTransactionSource = emptyTransactionSource,
  options: ChainProceduresOptions = {},
): Record<ServedProcedure, ProcedureHandler | undefined> {
  const getLastBlock: ProcedureHandler = () => chain.lastBlock();
  const finalizedAnswers = new AnswerCache(ANSWER_CACHE_CHARS);
  const tipAnswers = new AnswerCache(TIP_ANSWER_CACHE_CHARS);
  let answersTip = '';

  const getBlocksFromId: ProcedureHandler = async (data, context) => {
    const { blockId } = decodeOrThrow<{ blockId: Buffer }>(getBlocksFromIdRequestSchema, data, context, PENALTY_BAN);
    validateOrThrow(getBlocksFromIdRequestSchema, { blockId }, context);
    const key = blockId.toString('hex');
    const kept = finalizedAnswers.get(key);
    if (kept) return kept;
    // Both read before the answer is built: the chain may grow while a worker builds it, and an
    // answer cut at the tip it saw must be kept neither as the final one nor for a later tip.
    const tip = chain.tipId?.().toString('hex');
    if (tip !== undefined && tip !== answersTip) {
      tipAnswers.clear();
      answersTip = tip;
    }
    const recent = tip === undefined ? undefined : tipAnswers.get(key);
    if (recent) return recent;
    const height = await chain.heightOf(blockId);
    if (height === undefined) throw new Error(`Block ${key} does not exist`);
    const last = height + BLOCKS_PER_ANSWER;
    const final = chain.finalizedHeight !== undefined && last <= chain.finalizedHeight();
    const answer =
      (await options.blocksFromIdReader?.(blockId, height)) ?? encodeBlocksFromIdAnswer(await chain.blocksBetween(height + 1, last));
    if (!final && tip === undefined) return answer;
    const encoded = answer instanceof EncodedPayload ? answer : new EncodedPayload(answer.toString('base64'));
    if (final) finalizedAnswers.set(key, encoded);
    else if (tip === answersTip) tipAnswers.set(key, encoded);
    return encoded;
  };

  const getHighestCommonBlock: ProcedureHandler = async (data, context) => {
    const request = decodeOrThrow<{ ids: Buffer[] }>(getHighestCommonBlockRequestSchema, data, context, 0);
    validateOrThrow(getHighestCommonBlockRequestSchema, request, context);
    if (hasDuplicates(request.ids)) context.penalize(PENALTY_BAN);
    let best: { id: Buffer; height: number } | undefined;
    for (const id of request.ids) {
      const height = await chain.heightOf(id);
      if (height !== undefined && (best === undefined || height > best.height)) best = { id, height };
    }
    return codec.encode(getHighestCommonBlockResponseSchema, { id: best?.id ?? Buffer.alloc(0) });
  };

  const getTransactions: ProcedureHandler = async (data, context) => {
    if (data === undefined) {
      const pooled = await transactions.processable(TRANSACTIONS_PER_ANSWER);
      return codec.encode(getTransactionsResponseSchema, { transactions: pooled.slice(0, TRANSACTIONS_PER_ANSWER) });
    }
    const request = decodeOrThrow<{ transactionIds: Buffer[] }>(getTransactionsRequestSchema, data, context, 0);
    validateOrThrow(getTransactionsRequestSchema, request, context);
    if (hasDuplicates(request.transactionIds)) {
      context.penalize(PENALTY_BAN);
      throw new Error('Received invalid getTransactions body');
    }
    return codec.encode(getTransactionsResponseSchema, { transactions: await transactions.byIds(request.transactionIds) });
  };

  return { getLastBlock, getBlocksFromId, getHighestCommonBlock, getTransactions, getLegacyBlocksFromId: undefined };
}

/** Base64 answers by request key, the least recently used dropped once the text passes a budget. */
class AnswerCache {
  private readonly entries = new Map<string, EncodedPayload>();
  private chars = 0;

  constructor(private readonly budget: number) {}

  get(key: string): EncodedPayload | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last: re-inserting moves it (a few per second, not per RPC request).
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  set(key: string, entry: EncodedPayload): void {
    if (entry.base64.length > this.budget || this.entries.has(key)) return;
    this.entries.set(key, entry);
    this.chars += entry.base64.length;
    for (const [oldest, old] of this.entries) {
      if (this.chars <= this.budget) break;
      this.entries.delete(oldest);
      this.chars -= old.base64.length;
    }
  }
}
