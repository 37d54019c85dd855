import { BasaltError } from '../../errors.js';

/** Why the pool refused a transaction; stable identifiers for the RPC layer, logs and tests. */
export type PoolRejectionReason =
  /** Larger than the pool's maxPayloadLength (the genesis maxTransactionsSize). */
  | 'too-large'
  /** Fails static validation (schema limits, names, params size, signature lengths). */
  | 'malformed'
  /** Fee priority below the configured minEntranceFeePriority. */
  | 'fee-priority-too-low'
  /** The pool is full and the fee priority does not beat its lowest one. */
  | 'pool-full'
  /** Verification against the tip state failed (nonce spent, signature, fee, balance, command). */
  | 'invalid'
  /** Same sender and nonce as a pooled transaction without at least minReplacementFeeDifference more fee. */
  | 'replacement-fee-too-low'
  /** The sender already has maxTransactionsPerAccount transactions and this nonce is above all of them. */
  | 'account-limit'
  /** The verifier itself could not run (e.g. a worker failed); nothing is wrong with the transaction. */
  | 'verification-unavailable';

/**
 * A transaction refused by the pool (lisk-transaction-pool TransactionPoolError). `reason` is the
 * stable code; for 'invalid' the verification error is the `cause` and its message is included.
 */
export class TransactionPoolError extends BasaltError {
  constructor(
    readonly reason: PoolRejectionReason,
    message: string,
    readonly transactionID: Buffer,
    options?: { cause?: unknown },
  ) {
    super('ERR_TXPOOL_REJECTED', message, options);
  }
}
