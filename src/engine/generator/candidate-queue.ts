import type { Transaction } from '../../chain/transaction.js';

/** Transactions a block may include: per sender, in nonce order starting at the account nonce. */
export interface TransactionCandidates {
  /** Keyed by sender address (any stable string form); each list ascending by nonce. */
  readonly byAccount: ReadonlyMap<string, readonly Transaction[]>;
  /** Higher is better (lisk-sdk feePriority: fee per byte). */
  feePriority(transaction: Transaction): bigint;
}

/**
 * The forging order of lisk-sdk's HighFeeGenerationStrategy: always the highest fee priority
 * among the lowest-nonce transaction of each account. A binary heap keeps each pop O(log n).
 */
export class CandidateQueue {
  private readonly heap: { priority: bigint; account: string; position: number }[] = [];
  private readonly lists = new Map<string, readonly Transaction[]>();
  private readonly accountOf = new Map<Transaction, string>();

  constructor(private readonly candidates: TransactionCandidates) {
    for (const [account, list] of candidates.byAccount) {
      if (list.length === 0) continue;
      this.lists.set(account, list);
      for (const tx of list) this.accountOf.set(tx, account);
      this.push(account, 0);
    }
  }

  pop(): Transaction | undefined {
    const top = this.heap[0];
    if (!top) return undefined;
    const last = this.heap.pop() as (typeof this.heap)[number];
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.siftDown(0);
    }
    return (this.lists.get(top.account) as readonly Transaction[])[top.position];
  }

  /** After `tx` was included, its account's next transaction becomes a candidate. */
  advanceAccountOf(tx: Transaction): void {
    const account = this.accountOf.get(tx);
    if (account === undefined) return;
    const list = this.lists.get(account) as readonly Transaction[];
    const position = list.indexOf(tx) + 1;
    if (position < list.length) this.push(account, position);
  }

  /** After `tx` failed, the rest of its account's transactions can no longer apply. */
  dropAccountOf(tx: Transaction): void {
    const account = this.accountOf.get(tx);
    if (account !== undefined) this.lists.delete(account);
  }

  private push(account: string, position: number): void {
    const tx = (this.lists.get(account) as readonly Transaction[])[position] as Transaction;
    this.heap.push({ priority: this.candidates.feePriority(tx), account, position });
    this.siftUp(this.heap.length - 1);
  }

  private siftUp(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(index: number): void {
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < this.heap.length && this.before(left, best)) best = left;
      if (right < this.heap.length && this.before(right, best)) best = right;
      if (best === i) return;
      this.swap(i, best);
      i = best;
    }
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a] as (typeof this.heap)[number];
    const y = this.heap[b] as (typeof this.heap)[number];
    return x.priority > y.priority;
  }

  private swap(a: number, b: number): void {
    const tmp = this.heap[a] as (typeof this.heap)[number];
    this.heap[a] = this.heap[b] as (typeof this.heap)[number];
    this.heap[b] = tmp;
  }
}
