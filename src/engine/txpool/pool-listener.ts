import type { Transaction } from '../../chain/transaction.js';

/** Why a transaction left the pool (stable codes; messages for people and logs). */
export type RemovalCode =
  /** Included in a block that was applied. */
  | 'included'
  /** Replaced by a same-nonce transaction paying enough more fee. */
  | 'replaced'
  /** Evicted because the pool was full (lisk: "Pool exceeded the size limit"). */
  | 'evicted'
  /** Pushed out by a lower nonce of the same sender at maxTransactionsPerAccount. */
  | 'account-limit'
  /** Older than transactionExpiryTime (lisk: "Transaction exceeded the expiry time"). */
  | 'expired'
  /** No longer valid against the tip (nonce spent, balance gone, ...) or invalid in a block. */
  | 'invalid';

export interface RemovalReason {
  readonly code: RemovalCode;
  readonly message: string;
}

/**
 * Receives the pool's events (lisk-transaction-pool EVENT_TRANSACTION_ADDED / _REMOVED). The RPC
 * layer publishes `txpool_newTransaction` from `transactionAdded`. Listeners run synchronously
 * inside the pool's bookkeeping: they must be quick and must not call back into the pool.
 */
export interface TransactionPoolListener {
  transactionAdded?(transaction: Transaction): void;
  transactionRemoved?(transaction: Transaction, reason: RemovalReason): void;
}
