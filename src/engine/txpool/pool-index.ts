import type { Transaction } from '../../chain/transaction.js';
import { VerifyStatus } from '../../modules/base/index.js';
import { AccountTransactions } from './account-transactions.js';
import { IndexedHeap } from './indexed-heap.js';
import type { PoolEntry } from './pool-entry.js';

/** Eviction order: lowest fee priority first; among equals the newest goes first. */
function evictsBefore(a: PoolEntry, b: PoolEntry): boolean {
  return a.feePriority < b.feePriority || (a.feePriority === b.feePriority && a.sequence > b.sequence);
}

/**
 * The pool's indexed contents: entries by ID, per-sender nonce-ordered lists with their
 * processable runs, and three heaps kept in step with them — all entries, the unprocessable
 * ones, and each sender's last processable entry — so that every question the pool's rules ask
 * (lowest fee priority, next eviction victim, unprocessable count) costs O(1) or O(log n), where
 * lisk-transaction-pool rebuilds heaps over the whole pool. No policy lives here.
 */
export class PoolIndex {
  private readonly byId = new Map<string, PoolEntry>();
  private readonly accounts = new Map<string, AccountTransactions>();
  private readonly byPriority = new IndexedHeap<PoolEntry>(evictsBefore);
  private readonly unprocessable = new IndexedHeap<PoolEntry>(evictsBefore);
  private readonly tails = new IndexedHeap<PoolEntry>(evictsBefore);

  get size(): number {
    return this.byId.size;
  }

  get unprocessableCount(): number {
    return this.unprocessable.size;
  }

  get accountCount(): number {
    return this.accounts.size;
  }

  entry(id: string): PoolEntry | undefined {
    return this.byId.get(id);
  }

  /** Every entry, oldest first. */
  entries(): IterableIterator<PoolEntry> {
    return this.byId.values();
  }

  account(sender: string): AccountTransactions | undefined {
    return this.accounts.get(sender);
  }

  /** The entry with the lowest fee priority (the newest among equals). */
  lowest(): PoolEntry | undefined {
    return this.byPriority.peek();
  }

  /** lisk's eviction order: the lowest unprocessable entry, else the lowest sender tail. */
  evictionVictim(): PoolEntry | undefined {
    return this.unprocessable.peek() ?? this.tails.peek();
  }

  /** Per sender, the processable run in nonce order. */
  processable(): Map<string, Transaction[]> {
    const result = new Map<string, Transaction[]>();
    for (const [address, list] of this.accounts) {
      if (list.processableCount === 0) continue;
      const entries = list.all();
      const transactions = new Array<Transaction>(list.processableCount);
      for (let i = 0; i < list.processableCount; i += 1) transactions[i] = (entries[i] as PoolEntry).transaction;
      result.set(address, transactions);
    }
    return result;
  }

  /** Adds an entry whose ID and sender nonce are not held yet. */
  insert(entry: PoolEntry): void {
    let list = this.accounts.get(entry.sender);
    if (!list) {
      list = new AccountTransactions(entry.sender);
      this.accounts.set(entry.sender, list);
    }
    list.insert(entry);
    this.byId.set(entry.id, entry);
    this.byPriority.push(entry);
    entry.processable = false;
    this.unprocessable.push(entry);
    this.refresh(list);
  }

  /** Removes an entry; false when it is not (or no longer) held. */
  delete(entry: PoolEntry): boolean {
    if (this.byId.get(entry.id) !== entry) return false;
    this.byId.delete(entry.id);
    this.byPriority.remove(entry);
    this.unprocessable.remove(entry);
    const list = this.accounts.get(entry.sender) as AccountTransactions;
    list.remove(entry);
    this.refresh(list);
    if (list.size === 0) this.accounts.delete(entry.sender);
    return true;
  }

  /** New verification statuses for held entries; their senders' runs are recomputed once each. */
  setStatuses(updates: Iterable<readonly [PoolEntry, VerifyStatus]>): void {
    const touched = new Set<AccountTransactions>();
    for (const [entry, status] of updates) {
      if (this.byId.get(entry.id) !== entry) continue;
      entry.status = status;
      touched.add(this.accounts.get(entry.sender) as AccountTransactions);
    }
    for (const list of touched) this.refresh(list);
  }

  /** Forgets what is known of a sender's statuses: nothing of it is processable until re-verified. */
  demote(sender: string): void {
    const list = this.accounts.get(sender);
    if (!list) return;
    for (const entry of list.all()) entry.status = VerifyStatus.PENDING;
    this.refresh(list);
  }

  /** Recomputes a sender's processable run and keeps the unprocessable and tail heaps in step. */
  private refresh(list: AccountTransactions): void {
    const entries = list.all();
    const count = list.processablePrefixLength();
    for (let i = 0; i < entries.length; i += 1) {
      const entry = entries[i] as PoolEntry;
      const processable = i < count;
      if (entry.processable === processable) continue;
      entry.processable = processable;
      if (processable) this.unprocessable.remove(entry);
      else this.unprocessable.push(entry);
    }
    const tail = count > 0 ? entries[count - 1] : undefined;
    if (tail !== list.tail) {
      if (list.tail) this.tails.remove(list.tail);
      if (tail) this.tails.push(tail);
      list.tail = tail;
    }
    list.processableCount = count;
  }
}
