/**
 * A deliberately naive restatement of the pool's rules (every question answered by scanning
 * everything), used as the oracle of the differential tests. It knows each transaction's
 * verification outcome up front instead of asking a state machine.
 */

export type ModelStatus = 'ok' | 'pending' | 'fail';

export interface ModelTransaction {
  readonly id: string;
  readonly sender: string;
  readonly nonce: bigint;
  readonly fee: bigint;
  readonly priority: bigint;
  /** What verification against the tip gives. */
  readonly status: ModelStatus;
}

interface Held extends ModelTransaction {
  readonly sequence: number;
}

export interface ModelLimits {
  readonly maxTransactions: number;
  readonly maxTransactionsPerAccount: number;
  readonly minReplacementFeeDifference: bigint;
  readonly minEntranceFeePriority: bigint;
}

export type ModelOutcome = 'added' | 'replaced' | 'duplicate' | `rejected:${string}`;

export class ReferencePool {
  private held: Held[] = [];
  private sequence = 0;

  constructor(
    private readonly limits: ModelLimits,
    /** The account nonce at the tip, per sender. */
    private readonly accountNonce: (sender: string) => bigint,
  ) {}

  ids(): string[] {
    return this.held.map((tx) => tx.id).sort();
  }

  /** Per sender, the ids of the processable run in nonce order. */
  processable(): Map<string, string[]> {
    const result = new Map<string, string[]>();
    for (const sender of new Set(this.held.map((tx) => tx.sender))) {
      const run = this.run(sender);
      if (run.length > 0)
        result.set(
          sender,
          run.map((tx) => tx.id),
        );
    }
    return result;
  }

  unprocessableCount(): number {
    const processable = new Set([...this.processable().values()].flat());
    return this.held.filter((tx) => !processable.has(tx.id)).length;
  }

  add(tx: ModelTransaction): ModelOutcome {
    if (this.held.some((held) => held.id === tx.id)) return 'duplicate';
    if (tx.priority < this.limits.minEntranceFeePriority) return 'rejected:fee-priority-too-low';
    const own = this.held.filter((held) => held.sender === tx.sender);
    const existing = own.find((held) => held.nonce === tx.nonce);
    let displaced: Held | undefined;
    let evict = false;
    if (existing) {
      if (tx.fee < existing.fee + this.limits.minReplacementFeeDifference) return 'rejected:replacement-fee-too-low';
      displaced = existing;
    } else if (own.length >= this.limits.maxTransactionsPerAccount) {
      const highest = own.reduce((a, b) => (b.nonce > a.nonce ? b : a));
      if (tx.nonce > highest.nonce) return 'rejected:account-limit';
      displaced = highest;
    } else if (this.held.length >= this.limits.maxTransactions) {
      const lowest = this.lowest(this.held) as Held;
      if (tx.priority <= lowest.priority && this.unprocessableCount() < Math.floor(this.limits.maxTransactions / 2)) {
        return 'rejected:pool-full';
      }
      evict = true;
    }
    if (tx.status === 'fail') return 'rejected:invalid';
    if (displaced) this.drop(displaced.id);
    if (evict) {
      const processable = new Set([...this.processable().values()].flat());
      const unprocessable = this.held.filter((held) => !processable.has(held.id));
      const tails = [...this.processable().values()].map((run) => this.byId(run[run.length - 1] as string));
      const victim = this.lowest(unprocessable) ?? this.lowest(tails);
      if (victim) this.drop(victim.id);
    }
    this.held.push({ ...tx, sequence: this.sequence++ });
    return existing ? 'replaced' : 'added';
  }

  drop(id: string): boolean {
    const before = this.held.length;
    this.held = this.held.filter((tx) => tx.id !== id);
    return this.held.length < before;
  }

  private byId(id: string): Held {
    return this.held.find((tx) => tx.id === id) as Held;
  }

  /** The run a block could take: from the account nonce, consecutive nonces. */
  private run(sender: string): Held[] {
    const own = this.held.filter((tx) => tx.sender === sender).sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
    const first = own[0];
    if (first?.status !== 'ok' || first.nonce !== this.accountNonce(sender)) return [];
    const run = [first];
    for (const tx of own.slice(1)) {
      if (tx.nonce !== (run[run.length - 1] as Held).nonce + 1n) break;
      run.push(tx);
    }
    return run;
  }

  /** Lowest fee priority; among equals the newest. */
  private lowest(candidates: readonly Held[]): Held | undefined {
    let result: Held | undefined;
    for (const tx of candidates) {
      if (!result || tx.priority < result.priority || (tx.priority === result.priority && tx.sequence > result.sequence)) result = tx;
    }
    return result;
  }
}
