import type { Transaction } from '../../chain/transaction.js';
import type { VerifyStatus } from '../../modules/base/index.js';

/** One pooled transaction with what the pool derives from it once. */
export interface PoolEntry {
  readonly transaction: Transaction;
  /** Transaction ID, hex. */
  readonly id: string;
  /** Sender address, hex. */
  readonly sender: string;
  readonly nonce: bigint;
  readonly feePriority: bigint;
  /** Clock value (ms) when it entered the pool; the basis of expiry. */
  readonly receivedAt: number;
  /** Arrival order: breaks fee-priority ties (the newest goes first when evicting). */
  readonly sequence: number;
  /**
   * OK or PENDING at the last verification against the tip. Set back to PENDING when a block
   * touches the sender, until the re-check after that block has run.
   */
  status: VerifyStatus;
  /** Whether it is in its account's processable run (maintained by the pool). */
  processable: boolean;
}
