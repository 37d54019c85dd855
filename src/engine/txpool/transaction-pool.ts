/**
 * The transaction pool (lisk-transaction-pool TransactionPool as lisk-sdk 6.1's generator uses
 * it): unconfirmed transactions verified against the chain tip, kept per sender in nonce order,
 * split into a processable run (what the next block can include) and future nonces.
 */
import type { Transaction } from '../../chain/transaction.js';
import { silentLogger, type Logger } from '../../logger.js';
import { VerifyStatus, type VerificationResult } from '../../modules/base/index.js';
import { resolveTransactionPoolConfig, type TransactionPoolConfig } from './config.js';
import { TransactionPoolError, type PoolRejectionReason } from './errors.js';
import { feePriority } from './fee-priority.js';
import type { PoolEntry } from './pool-entry.js';
import { PoolIndex } from './pool-index.js';
import type { TransactionPoolListener, RemovalReason } from './pool-listener.js';
import type { PoolTip, PoolTransactionVerifier } from './pool-verifier.js';
import { InvariantError } from '../../errors.js';

export interface TransactionPoolOptions {
  /** Overrides of lisk-sdk's defaults; validated (ValidationError on a bad value). */
  readonly config?: Partial<TransactionPoolConfig>;
  readonly verifier: PoolTransactionVerifier;
  /** The current chain tip: committed state, height and timestamp of the last block. */
  readonly tip: () => PoolTip;
  /** Milliseconds; injectable so tests control expiry. */
  readonly now?: () => number;
  readonly logger?: Logger;
}

export type AddTransactionResult =
  | { readonly status: 'added'; readonly id: Buffer; readonly processable: boolean }
  | { readonly status: 'replaced'; readonly id: Buffer; readonly processable: boolean; readonly replaced: Transaction }
  /** Already pooled: not an error (lisk answers OK, as peers re-announce transactions a lot). */
  | { readonly status: 'duplicate'; readonly id: Buffer }
  | { readonly status: 'rejected'; readonly id: Buffer; readonly error: TransactionPoolError };

/** What the block producer may take: per sender (hex address), consecutive nonces from the account nonce. */
export interface ProcessableTransactions {
  readonly byAccount: ReadonlyMap<string, readonly Transaction[]>;
  feePriority(transaction: Transaction): bigint;
}

export interface TransactionPoolStats {
  readonly size: number;
  readonly processable: number;
  readonly unprocessable: number;
  readonly accounts: number;
}

/** How an admissible transaction changes the pool. */
type Admission =
  | { readonly kind: 'grow' }
  | { readonly kind: 'evict' }
  | { readonly kind: 'replace'; readonly existing: PoolEntry }
  | { readonly kind: 'displace-highest'; readonly highest: PoolEntry };

/** lisk-transaction-pool DEFAULT_EXPIRE_INTERVAL: how often expired transactions are dropped. */
export const EXPIRE_INTERVAL_MS = 60 * 60 * 1000;
/** Verifications of one new transaction before a tip that keeps moving is accepted as is. */
const MAX_VERIFY_ATTEMPTS = 3;

const REASON_INCLUDED: RemovalReason = { code: 'included', message: 'Transaction was included in a block' };
const REASON_REPLACED: RemovalReason = { code: 'replaced', message: 'Replaced by a transaction with the same nonce and a higher fee' };
const REASON_EVICTED: RemovalReason = { code: 'evicted', message: 'Pool exceeded the size limit' };
const REASON_ACCOUNT_LIMIT: RemovalReason = {
  code: 'account-limit',
  message: 'Displaced by a lower nonce at the per-account transaction limit',
};
const REASON_EXPIRED: RemovalReason = { code: 'expired', message: 'Transaction exceeded the expiry time' };

/**
 * The pool. Entry checks follow lisk-transaction-pool's `add` in order: size limit, duplicate,
 * minimum entrance fee priority, the full-pool rule, then verification against the tip (PENDING
 * — a future nonce — is kept, FAIL is refused), then the per-sender list rules (replacement fee
 * difference, per-account limit) and eviction when full: unprocessable transactions first, then
 * among each sender's highest processable nonce, always the lowest fee priority.
 *
 * Every structure is indexed (PoolIndex) so that each add or removal costs
 * O(log n + maxTransactionsPerAccount), where lisk rebuilds heaps over the whole pool.
 *
 * Where this pool differs from lisk-sdk 6.1 on purpose (no effect on consensus):
 * - eviction happens after the newcomer passed verification and only when it grows the pool (lisk
 *   may evict for a transaction it then rejects, or for a replacement);
 * - promotion of future nonces is immediate when the gap fills, and the re-check runs after each
 *   block instead of lisk's 500 ms reorganize job; a transaction that fails the re-check is
 *   removed on its own, its higher nonces stay (unprocessable) instead of being dropped with it;
 * - transactions are checked statically (Transaction.validate) on entry, so that a block built
 *   from the pool never fails its own validation.
 */
export class TransactionPool {
  readonly config: TransactionPoolConfig;
  private readonly verifier: PoolTransactionVerifier;
  private readonly tip: () => PoolTip;
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly listeners = new Set<TransactionPoolListener>();

  private readonly index = new PoolIndex();
  private readonly inFlight = new Map<string, Promise<AddTransactionResult>>();

  private sequence = 0;
  /** Increases with every block applied or reverted: verification results of older epochs are stale. */
  private epoch = 0;
  private recheckWanted = false;
  private recheckActive = false;
  private recheckDone: Promise<void> = Promise.resolve();
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(options: TransactionPoolOptions) {
    this.config = resolveTransactionPoolConfig(options.config);
    this.verifier = options.verifier;
    this.tip = options.tip;
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? silentLogger;
  }

  get size(): number {
    return this.index.size;
  }

  addListener(listener: TransactionPoolListener): void {
    this.listeners.add(listener);
  }

  removeListener(listener: TransactionPoolListener): void {
    this.listeners.delete(listener);
  }

  /** Starts dropping expired transactions every EXPIRE_INTERVAL_MS (lisk's expire job). */
  start(): void {
    if (this.expiryTimer) return;
    this.expiryTimer = setInterval(() => this.expire(), EXPIRE_INTERVAL_MS);
    this.expiryTimer.unref();
  }

  stop(): void {
    if (this.expiryTimer) clearInterval(this.expiryTimer);
    this.expiryTimer = undefined;
  }

  get(id: Buffer): Transaction | undefined {
    return this.index.entry(id.toString('hex'))?.transaction;
  }

  contains(id: Buffer): boolean {
    return this.index.entry(id.toString('hex')) !== undefined;
  }

  /** Every pooled transaction, oldest first. */
  getAll(): Transaction[] {
    const result: Transaction[] = [];
    for (const entry of this.index.entries()) result.push(entry.transaction);
    return result;
  }

  /** One sender's pooled transactions, ascending by nonce. */
  getByAddress(address: Buffer): Transaction[] {
    const list = this.index.account(address.toString('hex'));
    return list ? list.all().map((entry) => entry.transaction) : [];
  }

  stats(): TransactionPoolStats {
    const { size, unprocessableCount: unprocessable } = this.index;
    return { size, processable: size - unprocessable, unprocessable, accounts: this.index.accountCount };
  }

  /**
   * Per sender (hex address), the transactions a block could include now, ascending by nonce
   * from the account nonce without gaps (lisk-transaction-pool getProcessableTransactions).
   */
  getProcessableTransactions(): Map<string, Transaction[]> {
    return this.index.processable();
  }

  /** The processable transactions with their ranking, as the block generator consumes them. */
  candidates(): ProcessableTransactions {
    return { byAccount: this.getProcessableTransactions(), feePriority };
  }

  /**
   * Verifies `transaction` against the current tip and pools it (lisk-transaction-pool add).
   * Never throws: a refusal is a 'rejected' result whose error has a stable `reason`.
   * Concurrent adds of the same transaction share one verification and one result.
   */
  add(transaction: Transaction): Promise<AddTransactionResult> {
    const id = transaction.id.toString('hex');
    const running = this.inFlight.get(id);
    if (running) return running;
    const pending = this.verifyAndInsert(transaction, id).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, pending);
    return pending;
  }

  /** Removes a pooled transaction (e.g. one whose execution was invalid in a block being built). */
  remove(transaction: Transaction, reason: RemovalReason = { code: 'invalid', message: 'Removed as invalid' }): boolean {
    const entry = this.index.entry(transaction.id.toString('hex'));
    return entry !== undefined && this.removeEntry(entry, reason);
  }

  /**
   * After a block was applied on the tip (lisk-sdk generator onNewBlock): its transactions leave
   * the pool; pooled ones of its senders with a nonce it used are dropped at once, the rest of
   * those senders wait for the re-check; then every pooled transaction is verified again against
   * the new tip and the failing ones are removed. The returned promise ends with that re-check.
   */
  onNewBlock(block: { readonly transactions: readonly Transaction[] }): Promise<void> {
    this.epoch += 1;
    const usedNonces = new Map<string, bigint>();
    for (const transaction of block.transactions) {
      const sender = transaction.senderAddress().toString('hex');
      const used = usedNonces.get(sender);
      if (used === undefined || transaction.nonce > used) usedNonces.set(sender, transaction.nonce);
      const entry = this.index.entry(transaction.id.toString('hex'));
      if (entry) this.removeEntry(entry, REASON_INCLUDED);
    }
    for (const [sender, used] of usedNonces) {
      const spent =
        this.index
          .account(sender)
          ?.all()
          .filter((entry) => entry.nonce <= used) ?? [];
      for (const entry of spent) {
        this.removeEntry(entry, { code: 'invalid', message: `Nonce ${entry.nonce} was used by a transaction in the new block` });
      }
      this.index.demote(sender);
    }
    return this.requestRecheck();
  }

  /**
   * After the tip block was deleted (lisk-sdk generator onDeleteBlock): its transactions are
   * offered to the pool again, verified against the restored tip, and everything pooled is
   * re-checked. Resolves with the re-add results in block order.
   */
  async onDeleteBlock(block: { readonly transactions: readonly Transaction[] }): Promise<AddTransactionResult[]> {
    this.epoch += 1;
    for (const transaction of block.transactions) this.index.demote(transaction.senderAddress().toString('hex'));
    const recheck = this.requestRecheck();
    const results = await Promise.all(block.transactions.map((transaction) => this.add(transaction)));
    for (const result of results) {
      if (result.status === 'rejected') {
        this.logger.debug({ id: result.id.toString('hex'), reason: result.error.reason }, 'Transaction of a deleted block not re-added');
      }
    }
    await recheck;
    return results;
  }

  /** Removes transactions older than transactionExpiryTime; returns how many (lisk _expire). */
  expire(): number {
    const now = this.now();
    const expired: PoolEntry[] = [];
    for (const entry of this.index.entries()) {
      if (now - entry.receivedAt > this.config.transactionExpiryTime) expired.push(entry);
    }
    for (const entry of expired) this.removeEntry(entry, REASON_EXPIRED);
    return expired.length;
  }

  /** Resolves once no add and no re-check is in progress (for shutdown and tests). */
  async settled(): Promise<void> {
    while (this.recheckActive || this.inFlight.size > 0) {
      await Promise.allSettled([this.recheckDone, ...this.inFlight.values()]);
    }
  }

  private async verifyAndInsert(transaction: Transaction, id: string): Promise<AddTransactionResult> {
    const refusal = this.precheck(transaction, id);
    if (refusal) return refusal;

    let result: VerificationResult;
    let epoch: number;
    let attempts = 0;
    try {
      do {
        epoch = this.epoch;
        attempts += 1;
        const [first] = await this.verifier.verify([transaction], this.tip());
        if (first === undefined) throw new InvariantError('the verifier returned no result');
        result = first;
      } while (epoch !== this.epoch && attempts < MAX_VERIFY_ATTEMPTS);
    } catch (error) {
      return this.rejected(
        transaction,
        'verification-unavailable',
        `Transaction could not be verified: ${(error as Error).message}`,
        error,
      );
    }
    if (result.status === VerifyStatus.FAIL) {
      const message = result.error?.message ?? 'Invalid transaction';
      return this.rejected(transaction, 'invalid', message, result.error);
    }
    const outcome = this.insert(transaction, id, result.status);
    // The tip kept moving while verifying: the result may be stale, so the next re-check must see it.
    if (epoch !== this.epoch) void this.requestRecheck();
    return outcome;
  }

  /** The checks that need no verification, in lisk's order; undefined when the transaction may proceed. */
  private precheck(transaction: Transaction, id: string): AddTransactionResult | undefined {
    if (transaction.size > this.config.maxPayloadLength) {
      return this.rejected(transaction, 'too-large', `Transaction byte length is greater than ${this.config.maxPayloadLength}`);
    }
    if (this.index.entry(id)) return { status: 'duplicate', id: transaction.id };
    try {
      transaction.validate();
    } catch (error) {
      return this.rejected(transaction, 'malformed', `Invalid transaction: ${(error as Error).message}`, error);
    }
    const priority = feePriority(transaction);
    if (priority < this.config.minEntranceFeePriority) {
      return this.rejected(
        transaction,
        'fee-priority-too-low',
        `Rejecting transaction due to failed minimum entrance fee priority requirement: fee priority ${priority} is below ${this.config.minEntranceFeePriority}.`,
      );
    }
    const admission = this.admit(transaction, priority);
    return admission instanceof TransactionPoolError ? { status: 'rejected', id: transaction.id, error: admission } : undefined;
  }

  /** Whether the pool can take a verified transaction now, and what it displaces. */
  private admit(transaction: Transaction, priority: bigint): Admission | TransactionPoolError {
    const list = this.index.account(transaction.senderAddress().toString('hex'));
    const existing = list?.get(transaction.nonce);
    if (existing) {
      if (transaction.fee < existing.transaction.fee + this.config.minReplacementFeeDifference) {
        return new TransactionPoolError(
          'replacement-fee-too-low',
          `Incoming transaction fee is not sufficient to replace existing transaction: it needs at least ${existing.transaction.fee + this.config.minReplacementFeeDifference}.`,
          transaction.id,
        );
      }
      return { kind: 'replace', existing };
    }
    if (list && list.size >= this.config.maxTransactionsPerAccount) {
      const highest = list.highest() as PoolEntry;
      if (transaction.nonce > highest.nonce) {
        return new TransactionPoolError(
          'account-limit',
          `Incoming transaction exceeds maximum transaction limit per account (${this.config.maxTransactionsPerAccount}).`,
          transaction.id,
        );
      }
      return { kind: 'displace-highest', highest };
    }
    if (this.index.size < this.config.maxTransactions) return { kind: 'grow' };
    const lowest = this.index.lowest() as PoolEntry;
    // lisk: a newcomer that does not beat the lowest fee priority only gets in by evicting an
    // unprocessable transaction, and only while those make up at least half of the pool.
    if (priority <= lowest.feePriority && this.index.unprocessableCount < Math.floor(this.config.maxTransactions / 2)) {
      return new TransactionPoolError(
        'pool-full',
        `Rejecting transaction due to fee priority when the pool is full: fee priority ${priority} does not exceed the lowest ${lowest.feePriority}.`,
        transaction.id,
      );
    }
    return { kind: 'evict' };
  }

  /** Pools a verified transaction; the admission rules are applied again as the pool may have changed. */
  private insert(transaction: Transaction, id: string, status: VerifyStatus): AddTransactionResult {
    if (this.index.entry(id)) return { status: 'duplicate', id: transaction.id };
    const priority = feePriority(transaction);
    const admission = this.admit(transaction, priority);
    if (admission instanceof TransactionPoolError) return { status: 'rejected', id: transaction.id, error: admission };
    let replaced: Transaction | undefined;
    switch (admission.kind) {
      case 'replace':
        replaced = admission.existing.transaction;
        this.removeEntry(admission.existing, REASON_REPLACED);
        break;
      case 'displace-highest':
        this.removeEntry(admission.highest, REASON_ACCOUNT_LIMIT);
        break;
      case 'evict': {
        const victim = this.index.evictionVictim();
        if (victim) this.removeEntry(victim, REASON_EVICTED);
        break;
      }
      case 'grow':
        break;
    }

    const entry: PoolEntry = {
      transaction,
      id,
      sender: transaction.senderAddress().toString('hex'),
      nonce: transaction.nonce,
      feePriority: priority,
      receivedAt: this.now(),
      sequence: this.sequence++,
      status,
      processable: false,
    };
    this.index.insert(entry);
    this.emitAdded(transaction);
    return replaced
      ? { status: 'replaced', id: transaction.id, processable: entry.processable, replaced }
      : { status: 'added', id: transaction.id, processable: entry.processable };
  }

  private removeEntry(entry: PoolEntry, reason: RemovalReason): boolean {
    if (!this.index.delete(entry)) return false;
    this.emitRemoved(entry.transaction, reason);
    return true;
  }

  private requestRecheck(): Promise<void> {
    this.recheckWanted = true;
    if (!this.recheckActive) {
      this.recheckActive = true;
      this.recheckDone = this.runRechecks();
    }
    return this.recheckDone;
  }

  /** Re-verifies every pooled transaction against the tip until no newer block asks for another round. */
  private async runRechecks(): Promise<void> {
    try {
      while (this.recheckWanted) {
        this.recheckWanted = false;
        const epoch = this.epoch;
        const entries = [...this.index.entries()];
        if (entries.length === 0) continue;
        let results: VerificationResult[];
        try {
          results = await this.verifier.verify(
            entries.map((entry) => entry.transaction),
            this.tip(),
          );
          if (results.length !== entries.length)
            throw new InvariantError(`the verifier returned ${results.length} results for ${entries.length} transactions`);
        } catch (error) {
          // Keep the pool as it is; the block producer verifies again anyway, and so does the next re-check.
          this.logger.warn({ err: error }, 'Transaction pool re-check failed');
          continue;
        }
        // A newer block arrived meanwhile: its round (already requested) supersedes these results.
        if (epoch !== this.epoch) continue;
        this.applyRecheck(entries, results);
      }
    } finally {
      this.recheckActive = false;
    }
  }

  private applyRecheck(entries: readonly PoolEntry[], results: readonly VerificationResult[]): void {
    const updates: [PoolEntry, VerifyStatus][] = [];
    for (let i = 0; i < entries.length; i += 1) {
      const entry = entries[i] as PoolEntry;
      const result = results[i] as VerificationResult;
      // removeEntry ignores entries removed or replaced while the re-check ran.
      if (result.status === VerifyStatus.FAIL) {
        this.removeEntry(entry, { code: 'invalid', message: result.error?.message ?? 'Invalid transaction' });
      } else {
        updates.push([entry, result.status]);
      }
    }
    this.index.setStatuses(updates);
  }

  private rejected(transaction: Transaction, reason: PoolRejectionReason, message: string, cause?: unknown): AddTransactionResult {
    return {
      status: 'rejected',
      id: transaction.id,
      error: new TransactionPoolError(reason, message, transaction.id, cause === undefined ? undefined : { cause }),
    };
  }

  private emitAdded(transaction: Transaction): void {
    for (const listener of this.listeners) {
      try {
        listener.transactionAdded?.(transaction);
      } catch (error) {
        this.logger.error({ err: error }, 'Transaction pool listener failed');
      }
    }
  }

  private emitRemoved(transaction: Transaction, reason: RemovalReason): void {
    this.logger.debug({ id: transaction.id.toString('hex'), reason: reason.code }, 'Transaction removed from the pool');
    for (const listener of this.listeners) {
      try {
        listener.transactionRemoved?.(transaction, reason);
      } catch (error) {
        this.logger.error({ err: error }, 'Transaction pool listener failed');
      }
    }
  }
}
