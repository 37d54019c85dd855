/**
 * The signature verifier interface (docs/architecture.md, after Lodestar's IBlsVerifier):
 * callers hand over whole sets of checks and never know whether they run here or in the worker
 * pool (src/workers/pool-signature-verifier.ts).
 *
 * Why batching is safe: each check is a pure function of its own (digest, signature, public key);
 * no answer depends on another item of the set, so splitting a set across workers, or in any
 * order, gives the same answers as checking the items one by one. A set with bad signatures is
 * not a failed set: every item carries its own answer, so callers find exactly the bad items
 * without a second pass (libsodium has no batch equation whose failure would hide which item
 * broke it).
 *
 * BLS checks are pure too, but they are cheapest as one multi-pairing, whose failure does hide
 * the culprit: a failed batch is split in halves until each bad check stands alone, and a single
 * check's answer always comes from the exact one-check function (bls-batch.ts), so a bad
 * signature costs a few more pairings, never a wrong answer for its neighbours.
 */
import { aggregateSignatures } from './bls.js';
import { verifyBlsChecks, type BlsCheck } from './bls-batch.js';
import { verifyDigest } from './ed25519.js';

/** One Ed25519 check over an already tagged digest (LIP 0037: H(tag ‖ chainID ‖ data)). */
export interface Ed25519Check {
  readonly digest: Uint8Array;
  readonly signature: Uint8Array;
  readonly publicKey: Uint8Array;
}

export interface SignatureVerifier {
  /** `answers[i]` says whether `checks[i]` verifies (libsodium's strict rules, as Lisk's). */
  verifyEd25519(checks: readonly Ed25519Check[]): Promise<boolean[]>;
  /**
   * The same answers, for checks that nothing waits on yet (the blocks after the one executing):
   * a verifier may give them less of its capacity than verifyEd25519 would. Without it, callers
   * use verifyEd25519.
   */
  verifyEd25519Ahead?(checks: readonly Ed25519Check[]): Promise<boolean[]>;
  /** `answers[i]` says whether `checks[i]` holds (bls-batch.ts rules, as lisk-cryptography's). */
  verifyBls(checks: readonly BlsCheck[]): Promise<boolean[]>;
  /** The aggregate of `signatures` (bls.ts aggregateSignatures); rejects with its CryptoError. */
  aggregateBlsSignatures(signatures: readonly Uint8Array[]): Promise<Buffer>;
  /** Releases threads or other resources; a closed verifier must not be used again. */
  close(): Promise<void>;
}

/** Checks on the calling thread: tests, tiny sets, and the fallback when workers are unavailable. */
export class MainThreadSignatureVerifier implements SignatureVerifier {
  async verifyEd25519(checks: readonly Ed25519Check[]): Promise<boolean[]> {
    return checks.map((check) => verifyDigest(check.digest, check.signature, check.publicKey));
  }

  async verifyBls(checks: readonly BlsCheck[]): Promise<boolean[]> {
    return verifyBlsChecks(checks);
  }

  async aggregateBlsSignatures(signatures: readonly Uint8Array[]): Promise<Buffer> {
    return aggregateSignatures(signatures);
  }

  async close(): Promise<void> {}
}

/** What is known to verify, looked up by the exact bytes of a check. */
export interface VerifiedSignatures {
  has(check: Ed25519Check): boolean;
}

/** The checks of a set that verified, kept so that later code can skip checking them again. */
export class VerifiedSignatureSet implements VerifiedSignatures {
  private readonly keys = new Set<string>();

  /** Records the checks whose answer is true. */
  static fromAnswers(checks: readonly Ed25519Check[], answers: readonly boolean[]): VerifiedSignatureSet {
    const set = new VerifiedSignatureSet();
    checks.forEach((check, i) => {
      if (answers[i] === true) set.keys.add(keyOf(check));
    });
    return set;
  }

  has(check: Ed25519Check): boolean {
    return this.keys.has(keyOf(check));
  }

  get size(): number {
    return this.keys.size;
  }
}

/**
 * All three fields with their lengths, so a key, signature or digest that differs by one byte,
 * or bytes moved from one field to the next, never match.
 */
function keyOf(check: Ed25519Check): string {
  const bytes = Buffer.concat([check.digest, check.signature, check.publicKey]).toString('latin1');
  return `${check.digest.length}.${check.signature.length}.${bytes}`;
}
