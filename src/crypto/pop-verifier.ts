/**
 * Proof-of-possession checks in sets (LIP 0038; bls-pop.ts `popVerify`), after the verifier
 * pattern of signature-verifier.ts: callers hand over every (key, proof) pair a block or a
 * request will check and never know whether the answers were computed here or in the worker pool
 * (src/workers/pool-pop-verifier.ts).
 *
 * Why a set may be split and reordered freely: each answer is `popVerify(publicKey, proof)`, a
 * pure function of its own pair. A bad proof in a set is just a false answer for that pair; its
 * neighbours are checked on their own and keep theirs.
 */
import { popVerify } from './bls-pop.js';

/** One proof of possession to check: the 48-byte compressed key and its 96-byte proof. */
export interface PopCheck {
  readonly publicKey: Uint8Array;
  readonly proof: Uint8Array;
}

export interface PopVerifier {
  /** `answers[i]` is `popVerify(checks[i].publicKey, checks[i].proof)`. */
  verifyProofsOfPossession(checks: readonly PopCheck[]): Promise<boolean[]>;
}

/** Checks on the calling thread: tests, nodes without worker threads, and the pool's fallback. */
export class MainThreadPopVerifier implements PopVerifier {
  async verifyProofsOfPossession(checks: readonly PopCheck[]): Promise<boolean[]> {
    return checks.map((check) => popVerify(check.publicKey, check.proof));
  }
}
