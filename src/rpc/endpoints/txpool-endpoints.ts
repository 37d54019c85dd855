/**
 * The engine's `txpool` namespace (lisk-sdk engine/endpoint/txpool.ts): post a transaction to the
 * pool, list pooled transactions, and dry-run a transaction on a throw-away copy of the tip state.
 */
import type { ChainStore } from '../../chain/chain-store.js';
import { eventToJSON, type EventJSON } from '../../chain/event.js';
import { Transaction, type TransactionJSON } from '../../chain/transaction.js';
import { decodeLisk32Address } from '../../codec/index.js';
import type { BlockWorkAhead } from '../../engine/block-executor.js';
import { TransactionExecutionResult, type StateMachine } from '../../engine/state-machine/state-machine.js';
import type { TransactionPool } from '../../engine/txpool/transaction-pool.js';
import { InvalidParamsError, StoreError } from '../../errors.js';
import { EventQueue, VerifyStatus } from '../../modules/base/index.js';
import { OverlayState } from '../../state/overlay-state.js';
import type { StateReader } from '../../state/state-view.js';
import type { RpcMethod } from '../registry.js';

export interface TxpoolEndpointsOptions {
  readonly pool: TransactionPool;
  readonly stateMachine: StateMachine;
  readonly chainStore: ChainStore;
  /** The committed module state (the tip's). */
  readonly moduleState: () => StateReader;
  /** Largest accepted encoded transaction in bytes (hex is twice that). */
  readonly maxTransactionBytes: number;
  /** Work done before a dry run executes (the proofs of possession it registers, in the worker pool). */
  readonly workAhead?: BlockWorkAhead;
}

const transactionHex = (maxBytes: number) => ({ type: 'string', format: 'hex', minLength: 2, maxLength: 2 * maxBytes });

function decodeTransaction(hex: string): Transaction {
  try {
    const transaction = Transaction.fromBytes(Buffer.from(hex, 'hex'));
    transaction.validate();
    return transaction;
  } catch (error) {
    throw new InvalidParamsError(`Invalid transaction: ${(error as Error).message}`);
  }
}

export function createTxpoolEndpoints(options: TxpoolEndpointsOptions): RpcMethod[] {
  const { pool, stateMachine, chainStore } = options;
  const tipHeader = () => chainStore.getHeaderByHeight(chainStore.tipHeight());

  const postTransaction: RpcMethod = {
    namespace: 'txpool',
    name: 'postTransaction',
    request: {
      type: 'object',
      required: ['transaction'],
      properties: { transaction: transactionHex(options.maxTransactionBytes) },
      additionalProperties: false,
    },
    invoke(params) {
      const transaction = decodeTransaction(params.transaction as string);
      const answer = { transactionId: transaction.id.toString('hex') };
      // Lisk answers OK for a transaction the pool already holds, and the pool's add finds it
      // before any other check (its size passed them when it was admitted). Answering that case
      // here keeps a re-post synchronous: no promise, no in-flight entry in the pool, the
      // answer written inside the transport callback. Clients resubmit, so this path is hot.
      if (pool.contains(transaction.id)) return answer;
      return pool.add(transaction).then((result) => {
        if (result.status === 'rejected') throw new InvalidParamsError(result.error.message);
        return answer;
      });
    },
  };

  const getTransactionsFromPool: RpcMethod = {
    namespace: 'txpool',
    name: 'getTransactionsFromPool',
    request: {
      type: 'object',
      properties: { address: { type: 'string', format: 'lisk32' } },
      additionalProperties: false,
    },
    invoke(params): TransactionJSON[] {
      const transactions = typeof params.address === 'string' ? pool.getByAddress(decodeLisk32Address(params.address)) : pool.getAll();
      return transactions.map((tx) => tx.toJSON());
    },
  };

  const dryRunTransaction: RpcMethod = {
    namespace: 'txpool',
    name: 'dryRunTransaction',
    request: {
      type: 'object',
      required: ['transaction'],
      properties: {
        transaction: transactionHex(options.maxTransactionBytes),
        skipVerify: { type: 'boolean' },
        strict: { type: 'boolean' },
      },
      additionalProperties: false,
    },
    async invoke(params): Promise<{ result: number; events: EventJSON[]; errorMessage?: string }> {
      const transaction = decodeTransaction(params.transaction as string);
      const header = tipHeader();
      if (!header) throw new StoreError('The chain has no tip.');
      const state = new OverlayState(options.moduleState());
      const contextStore = new Map<string, unknown>();
      if (params.skipVerify !== true) {
        // lisk-sdk: a non-strict dry run checks only the command (no nonce, signature or fee).
        const onlyCommand = params.strict !== true;
        const verification = await stateMachine.verifyTransaction(
          transaction,
          state,
          { height: header.height, timestamp: header.timestamp },
          contextStore,
          onlyCommand,
        );
        if (verification.status !== VerifyStatus.OK) {
          return {
            result: TransactionExecutionResult.INVALID,
            events: [],
            errorMessage: verification.error?.message ?? 'Transaction verification failed.',
          };
        }
      }
      const events = EventQueue.forBlock(header.height);
      const assets = chainStore.getBlockByHeight(header.height).assets;
      const work = { transactions: [transaction], moduleState: state };
      await options.workAhead?.prepare(work, false);
      let result: TransactionExecutionResult;
      try {
        result = await stateMachine.executeTransaction(
          { state, events, contextStore, header, assets, setNextValidators: () => undefined },
          transaction,
        );
      } finally {
        options.workAhead?.release(work);
      }
      return { result, events: events.events().map((event, index) => eventToJSON({ ...event, index })) };
    },
  };

  return [postTransaction, getTransactionsFromPool, dryRunTransaction];
}
