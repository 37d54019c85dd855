export { AccountTransactions } from './account-transactions.js';
export { CoalescingPoolVerifier } from './coalescing-pool-verifier.js';
export {
  selectTransactionsForBlock,
  StateMachineInclusion,
  type BlockInclusionTarget,
  type BlockSelection,
  type InclusionOutcome,
} from './block-selection.js';
export {
  DEFAULT_TRANSACTION_POOL_CONFIG,
  parseTransactionPoolConfig,
  resolveTransactionPoolConfig,
  type TransactionPoolConfig,
} from './config.js';
export { TransactionPoolError, type PoolRejectionReason } from './errors.js';
export { feePriority } from './fee-priority.js';
export { IndexedHeap } from './indexed-heap.js';
export type { PoolEntry } from './pool-entry.js';
export type { RemovalCode, RemovalReason, TransactionPoolListener } from './pool-listener.js';
export { StateMachinePoolVerifier, tipOf, type PoolTip, type PoolTipSource, type PoolTransactionVerifier } from './pool-verifier.js';
export {
  EXPIRE_INTERVAL_MS,
  TransactionPool,
  type AddTransactionResult,
  type ProcessableTransactions,
  type TransactionPoolOptions,
  type TransactionPoolStats,
} from './transaction-pool.js';
