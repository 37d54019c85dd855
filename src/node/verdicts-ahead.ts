/**
 * The bookkeeping that checks computed ahead of a block share (pop-checks-ahead.ts,
 * certificate-checks-ahead.ts): answers keyed by their whole input, held by each block being
 * executed that asked for them, and dropped once no block holds them. Two blocks in flight at once
 * (a block executing while another is generated) may ask for the same answer.
 */
import type { BlockWorkAhead, WorkAheadInput } from '../engine/block-executor.js';

interface Verdict {
  readonly valid: boolean;
  holders: number;
}

export interface PendingCheck<I> {
  /** Identifies the input completely: equal keys must mean equal answers. */
  readonly key: string;
  readonly input: I;
}

export class VerdictsAhead<I> {
  private readonly verdicts = new Map<string, Verdict>();
  private readonly held = new Map<WorkAheadInput, string[]>();

  /**
   * Holds for `work` the answers for `checks`, computing with `verify` those no other block
   * holds. If `verify` throws, the answers it was asked for stay missing: execution then
   * computes them itself, so the block's fate never depends on work done ahead.
   */
  async hold(work: WorkAheadInput, checks: readonly PendingCheck<I>[], verify: (inputs: I[]) => Promise<boolean[]>): Promise<void> {
    if (checks.length === 0) return;
    // Answers already here are held at once, so that a release meanwhile cannot drop them; the
    // others once they have been computed.
    const held: string[] = [];
    const unknown: PendingCheck<I>[] = [];
    for (const check of checks) {
      const verdict = this.verdicts.get(check.key);
      if (verdict === undefined) {
        unknown.push(check);
      } else {
        verdict.holders += 1;
        held.push(check.key);
      }
    }
    this.held.set(work, held);
    if (unknown.length === 0) return;
    let answers: boolean[];
    try {
      answers = await verify(unknown.map((check) => check.input));
    } catch {
      return;
    }
    unknown.forEach(({ key }, i) => {
      const verdict = this.verdicts.get(key);
      if (verdict === undefined) this.verdicts.set(key, { valid: answers[i] === true, holders: 1 });
      else verdict.holders += 1;
      held.push(key);
    });
  }

  /** Drops what `work` held; answers no other block holds are forgotten. */
  release(work: WorkAheadInput): void {
    const keys = this.held.get(work);
    if (keys === undefined) return;
    this.held.delete(work);
    for (const key of keys) {
      const verdict = this.verdicts.get(key);
      if (verdict === undefined) continue;
      verdict.holders -= 1;
      if (verdict.holders <= 0) this.verdicts.delete(key);
    }
  }

  /** The answer held for `key`, if any block holds one. */
  get(key: string): boolean | undefined {
    return this.verdicts.get(key)?.valid;
  }
}

/**
 * A BlockWorkAhead whose answers are held in VerdictsAhead: a block's checks go to the `blocks`
 * verifier, a dry run's to `requests` (the RPC class), and execution reads both the same way.
 */
export abstract class ChecksAhead<I, V> implements BlockWorkAhead {
  protected readonly verdicts = new VerdictsAhead<I>();

  constructor(private readonly verifiers: { readonly blocks: V; readonly requests?: V }) {}

  async prepare(work: WorkAheadInput, genesis: boolean): Promise<void> {
    return this.prepareWith(this.verifiers.blocks, work, genesis);
  }

  /**
   * The same work ahead for a request that executes transactions (txpool_dryRunTransaction): its
   * checks run at the RPC class, behind block work, into the same answers.
   */
  forRequests(): BlockWorkAhead {
    const verifier = this.verifiers.requests ?? this.verifiers.blocks;
    return {
      prepare: (work, genesis) => this.prepareWith(verifier, work, genesis),
      release: (work) => this.release(work),
    };
  }

  release(work: WorkAheadInput): void {
    this.verdicts.release(work);
  }

  private async prepareWith(verifier: V, work: WorkAheadInput, genesis: boolean): Promise<void> {
    await this.verdicts.hold(work, this.checksOf(work, genesis), (inputs) => this.verify(verifier, inputs));
  }

  /** The checks `work` will make, each with the key of its whole input. */
  protected abstract checksOf(work: WorkAheadInput, genesis: boolean): PendingCheck<I>[];

  /** The answers of `verifier` for `inputs`, in order. */
  protected abstract verify(verifier: V, inputs: I[]): Promise<boolean[]>;
}
