import { VerifyStatus } from '../../modules/base/index.js';
import type { PoolEntry } from './pool-entry.js';
import { InvariantError } from '../../errors.js';

/**
 * One sender's pooled transactions in ascending nonce order (lisk-transaction-pool
 * TransactionList). At most maxTransactionsPerAccount entries, so a sorted array with binary
 * search beats any tree here.
 */
export class AccountTransactions {
  private readonly entries: PoolEntry[] = [];
  /** Length of the processable run at the last refresh (maintained by the pool). */
  processableCount = 0;
  /** The last processable entry at the last refresh: this account's candidate for eviction. */
  tail: PoolEntry | undefined;

  constructor(readonly address: string) {}

  get size(): number {
    return this.entries.length;
  }

  /** Every entry, ascending by nonce. */
  all(): readonly PoolEntry[] {
    return this.entries;
  }

  get(nonce: bigint): PoolEntry | undefined {
    const index = this.search(nonce);
    const entry = this.entries[index];
    return entry !== undefined && entry.nonce === nonce ? entry : undefined;
  }

  highest(): PoolEntry | undefined {
    return this.entries[this.entries.length - 1];
  }

  /** Inserts an entry whose nonce is not held yet. */
  insert(entry: PoolEntry): void {
    const index = this.search(entry.nonce);
    if (this.entries[index]?.nonce === entry.nonce) throw new InvariantError(`Nonce ${entry.nonce} is already pooled for ${this.address}.`);
    this.entries.splice(index, 0, entry);
  }

  remove(entry: PoolEntry): boolean {
    const index = this.search(entry.nonce);
    if (this.entries[index] !== entry) return false;
    this.entries.splice(index, 1);
    return true;
  }

  /**
   * How many entries, from the lowest nonce, a block could include now: the first one verified
   * OK against the tip (so its nonce is the account's nonce), then every following one whose
   * nonce continues without a gap. (lisk-sdk promotes these after re-verifying them; the pool
   * re-verifies everything after each block, so a later nonce verified PENDING at this tip may
   * join the run as soon as the gap before it is filled.)
   */
  processablePrefixLength(): number {
    const first = this.entries[0];
    if (first === undefined || first.status !== VerifyStatus.OK) return 0;
    let length = 1;
    let expected = first.nonce + 1n;
    while (length < this.entries.length) {
      const entry = this.entries[length] as PoolEntry;
      if (entry.nonce !== expected) break;
      length += 1;
      expected += 1n;
    }
    return length;
  }

  /** First index whose nonce is >= `nonce`. */
  private search(nonce: bigint): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.entries[middle] as PoolEntry).nonce < nonce) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
