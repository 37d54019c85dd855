/**
 * Batch verification of transaction signatures ahead of their one-by-one verification (the
 * verifier pattern of docs/architecture.md), shared by block execution and the transaction pool.
 *
 * Planning the checks ahead, against the state before the transactions run, is only an
 * optimisation: a transaction whose sender's keys change on the way (a multisignature
 * registration earlier in the same block) finds its checks missing from the set and verifies them
 * itself, so results and error messages never depend on the plan.
 */
import type { Transaction } from '../chain/transaction.js';
import { VerifiedSignatureSet, type SignatureVerifier, type VerifiedSignatures } from '../crypto/signature-verifier.js';
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
