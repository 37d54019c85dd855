/**
 * Batch verification of transaction signatures ahead of their one-by-one verification (the
 * verifier pattern of docs/architecture.md), shared by block execution and the transaction pool.
 *
 * Planning the checks ahead, against the state before the transactions run, is only an
 * optimisation: a transaction whose sender's keys change on the way (a multisignature
 * registration earlier in the same block, or in a block applied in between) finds its checks
 * missing from the set and verifies them itself, so results and error messages never depend on
 * the plan.
 */
import type { Block } from '../chain/block.js';
import type { Transaction } from '../chain/transaction.js';
import { VerifiedSignatureSet, type Ed25519Check, type SignatureVerifier, type VerifiedSignatures } from '../crypto/signature-verifier.js';
import type { StateReader } from '../state/state-view.js';
import type { StateMachine } from './state-machine/state-machine.js';

/** The checks of `transactions` that verify, or undefined when there is no verifier to batch with. */
export async function verifySignaturesAhead(
  stateMachine: StateMachine,
  verifier: SignatureVerifier | undefined,
  transactions: readonly Transaction[],
  state: StateReader,
): Promise<VerifiedSignatures | undefined> {
  if (verifier === undefined || transactions.length === 0) return undefined;
  const checks = stateMachine.signatureChecks(transactions, state);
  return VerifiedSignatureSet.fromAnswers(checks, await verifier.verifyEd25519(checks));
}

/** The signature checks of one block's transactions, sent to the verifier before the block executes. */
export class SignaturePlan {
  /** The answers once they are in; undefined while the verifier works (or if it failed). */
  private settled: boolean[] | undefined;
  /** Resolves with the answers, or undefined if the verifier failed (then the plan is not used). */
  readonly answers: Promise<boolean[] | undefined>;

  constructor(
    readonly checks: readonly Ed25519Check[],
    answers: Promise<boolean[]>,
  ) {
    this.answers = answers.then(
      (settled) => {
        this.settled = settled;
        return settled;
      },
      () => undefined,
    );
  }

  /** The checks that verified, if the answers are already in. */
  verifiedNow(): VerifiedSignatures | undefined {
    return this.settled && VerifiedSignatureSet.fromAnswers(this.checks, this.settled);
  }
}

/**
 * Signature plans of blocks about to be applied (sync's batches, a replayed file): each block's
 * checks go to the verifier (the pool, at consensus priority) while the blocks before it execute
 * and commit, so its own execution rarely waits for them. The owner plans at most `limit` blocks
 * past the one executing, and drops the plans of blocks that will not come next (`retainOnly`).
 */
export class SignaturePlans {
  private readonly plans = new Map<string, SignaturePlan>();

  constructor(
    private readonly stateMachine: StateMachine,
    private readonly verifier: SignatureVerifier,
    readonly limit: number,
  ) {}

  /**
   * Starts verifying the checks of `block`'s transactions, planned against `state`, unless already
   * planned; returns its plan (none for a block without transactions). `next`: the block executes
   * right away, so its checks get the verifier's full capacity; the others are checked ahead
   * (SignatureVerifier.verifyEd25519Ahead), leaving room for the work the node waits on now.
   */
  plan(block: Block, state: StateReader, next = false): SignaturePlan | undefined {
    const key = keyOf(block);
    const planned = this.plans.get(key);
    if (planned !== undefined || block.transactions.length === 0) return planned;
    const checks = this.stateMachine.signatureChecks(block.transactions, state);
    const { verifier } = this;
    const answers =
      next || verifier.verifyEd25519Ahead === undefined ? verifier.verifyEd25519(checks) : verifier.verifyEd25519Ahead(checks);
    const plan = new SignaturePlan(checks, answers);
    this.plans.set(key, plan);
    return plan;
  }

  /** The plan of `block`, removed from the set. */
  take(block: Block): SignaturePlan | undefined {
    const key = keyOf(block);
    const plan = this.plans.get(key);
    if (plan !== undefined) this.plans.delete(key);
    return plan;
  }

  /** Drops the plans of every block but `keep`'s. */
  retainOnly(keep: readonly Block[]): void {
    const kept = new Set(keep.map(keyOf));
    for (const key of this.plans.keys()) if (!kept.has(key)) this.plans.delete(key);
  }
}

/** A block's ID names its transactions (through the transaction root), hence its checks. */
function keyOf(block: Block): string {
  return block.header.id.toString('latin1');
}
