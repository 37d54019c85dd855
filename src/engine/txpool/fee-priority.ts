import type { Transaction } from '../../chain/transaction.js';

/**
 * lisk-transaction-pool's fee priority: the fee per byte of the full encoding (signatures
 * included), rounded down. It ranks transactions for eviction and for block production.
 */
export function feePriority(transaction: Transaction): bigint {
  return transaction.fee / BigInt(transaction.size);
}
