/**
 * Transactions posted one by one (txpool_postTransaction, a peer's gossip) each ask the pool
 * verifier about one transaction: too few signatures for the worker pool to be worth a trip, so
 * under load the main thread would check them all itself. This wrapper gathers the single-
 * transaction calls made within one turn of the event loop against the same tip into one call
 * of the wrapped verifier, whose signature batch then goes to the workers.
 *
 * Safe for the reason PoolTransactionVerifier gives: every transaction is verified on its own
 * against the read-only tip state, so verifying it beside others changes no result. Calls with
 * several transactions (re-checks) are batches already and pass straight through.
 */
import type { Transaction } from '../../chain/transaction.js';
import type { VerificationResult } from '../../modules/base/index.js';
import type { PoolTip, PoolTransactionVerifier } from './pool-verifier.js';
import { InvariantError } from '../../errors.js';

interface Waiting {
  readonly transaction: Transaction;
  readonly tip: PoolTip;
  resolve(results: VerificationResult[]): void;
  reject(error: unknown): void;
}

export class CoalescingPoolVerifier implements PoolTransactionVerifier {
  private waiting: Waiting[] = [];

  constructor(private readonly inner: PoolTransactionVerifier) {}

  verify(transactions: readonly Transaction[], tip: PoolTip): Promise<VerificationResult[]> {
    if (transactions.length !== 1) return this.inner.verify(transactions, tip);
    return new Promise<VerificationResult[]>((resolve, reject) => {
      this.waiting.push({ transaction: transactions[0] as Transaction, tip, resolve, reject });
      // setImmediate runs after the I/O of this turn: every request already read joins the batch.
      if (this.waiting.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const waiting = this.waiting;
    this.waiting = [];
    // One call per tip: a block committed between two requests gives them different tips.
    const byTip = new Map<string, Waiting[]>();
    const stateIds = new Map<PoolTip['state'], number>();
    for (const entry of waiting) {
      const { state, height, timestamp } = entry.tip;
      if (!stateIds.has(state)) stateIds.set(state, stateIds.size);
      const key = `${stateIds.get(state)}:${height}:${timestamp}`;
      byTip.set(key, [...(byTip.get(key) ?? []), entry]);
    }
    for (const group of byTip.values()) void this.verifyGroup(group);
  }

  private async verifyGroup(group: readonly Waiting[]): Promise<void> {
    try {
      const results = await this.inner.verify(
        group.map((entry) => entry.transaction),
        (group[0] as Waiting).tip,
      );
      if (results.length !== group.length)
        throw new InvariantError(`the verifier returned ${results.length} results for ${group.length} transactions`);
      for (const [i, entry] of group.entries()) entry.resolve([results[i] as VerificationResult]);
    } catch (error) {
      for (const entry of group) entry.reject(error);
    }
  }
}
