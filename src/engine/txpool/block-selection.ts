/**
 * Choosing a block's transactions from the pool (lisk-sdk generator HighFeeGenerationStrategy):
 * always the highest fee priority among the lowest pending nonce of each sender, each checked on
 * the block's state as the transactions before it left it.
 */
import { ExecutionPanicError } from '../../errors.js';
import type { Transaction } from '../../chain/transaction.js';
import { VerifyStatus } from '../../modules/base/index.js';
import { TransactionExecutionResult, type BlockExecution, type StateMachine } from '../state-machine/state-machine.js';
import { IndexedHeap } from './indexed-heap.js';
import type { ProcessableTransactions } from './transaction-pool.js';

/**
 * What happened to a candidate: included (its command may still have failed, which a block
 * records), rejected (did not verify on the block's state so far: skipped with the rest of its
 * sender's nonces), or invalid (a hook threw while executing it: it can never be in a block, and
 * lisk-sdk removes it from the pool).
 */
export type InclusionOutcome = 'included' | 'rejected' | 'invalid';

/** The block being built: verifies a candidate on its accumulated state and, if valid, applies it. */
export interface BlockInclusionTarget {
  tryInclude(transaction: Transaction): Promise<InclusionOutcome>;
}

export interface BlockSelection {
  /** In block order. */
  readonly transactions: Transaction[];
  /** Sum of their encoded sizes in bytes. */
  readonly size: number;
  readonly rejected: Transaction[];
  /** To be removed from the pool (TransactionPool.remove). */
  readonly invalid: Transaction[];
}

interface Cursor {
  readonly list: readonly Transaction[];
  readonly order: number;
  position: number;
  priority: bigint;
}

/**
 * Selects transactions for a block within `maxTransactionsSize` bytes (the genesis
 * maxTransactionsSize). Per sender only the lowest remaining nonce is a candidate, so nonce order
 * holds; among candidates the highest fee priority goes first (ties: the sender listed first).
 * A rejected or invalid candidate drops its sender's later nonces, which depend on it. Selection
 * ends at the first candidate that does not fit the remaining bytes, as in lisk-sdk.
 */
export async function selectTransactionsForBlock(
  candidates: ProcessableTransactions,
  maxTransactionsSize: number,
  target: BlockInclusionTarget,
): Promise<BlockSelection> {
  const heap = new IndexedHeap<Cursor>((a, b) => a.priority > b.priority || (a.priority === b.priority && a.order < b.order));
  let order = 0;
  for (const list of candidates.byAccount.values()) {
    const first = list[0];
    if (first === undefined) continue;
    heap.push({ list, order: order++, position: 0, priority: candidates.feePriority(first) });
  }

  const selection: BlockSelection = { transactions: [], size: 0, rejected: [], invalid: [] };
  let size = 0;
  for (let cursor = heap.pop(); cursor !== undefined; cursor = heap.pop()) {
    const transaction = cursor.list[cursor.position] as Transaction;
    if (size + transaction.size > maxTransactionsSize) break;
    const outcome = await target.tryInclude(transaction);
    if (outcome !== 'included') {
      (outcome === 'invalid' ? selection.invalid : selection.rejected).push(transaction);
      continue;
    }
    selection.transactions.push(transaction);
    size += transaction.size;
    cursor.position += 1;
    const next = cursor.list[cursor.position];
    if (next !== undefined) {
      cursor.priority = candidates.feePriority(next);
      heap.push(cursor);
    }
  }
  return { ...selection, size };
}

/**
 * The block under construction as the state machine sees it: each candidate is verified on the
 * block's overlay state and context store (so a transaction invalidated by an earlier one of the
 * same block is rejected), then executed into them.
 */
export class StateMachineInclusion implements BlockInclusionTarget {
  constructor(
    private readonly stateMachine: StateMachine,
    private readonly execution: BlockExecution,
  ) {}

  async tryInclude(transaction: Transaction): Promise<InclusionOutcome> {
    const { header, state, contextStore } = this.execution;
    const verification = await this.stateMachine.verifyTransaction(
      transaction,
      state,
      { height: header.height, timestamp: header.timestamp },
      contextStore,
    );
    if (verification.status !== VerifyStatus.OK) return 'rejected';
    let result: TransactionExecutionResult;
    try {
      result = await this.stateMachine.executeTransaction(this.execution, transaction);
    } catch (error) {
      // A transaction no block can hold (lisk-sdk would stop the node on it) is left out.
      if (error instanceof ExecutionPanicError) return 'invalid';
      throw error;
    }
    return result === TransactionExecutionResult.INVALID ? 'invalid' : 'included';
  }
}
