/**
 * How the pool checks transactions against the chain tip, behind a small interface (the verifier
 * pattern of docs/architecture.md): the implementation below runs the state machine, with the
 * batch's signature checks done at once through a SignatureVerifier (the worker pool) when it has
 * one.
 */
import type { Transaction } from '../../chain/transaction.js';
import type { SignatureVerifier } from '../../crypto/signature-verifier.js';
import type { VerificationResult } from '../../modules/base/index.js';
import type { StateReader } from '../../state/state-view.js';
import { verifySignaturesAhead } from '../signatures-ahead.js';
import type { StateMachine } from '../state-machine/state-machine.js';

/** The committed chain state the pool verifies against (lisk-sdk: the last block's header). */
export interface PoolTip {
  readonly state: StateReader;
  readonly height: number;
  readonly timestamp: number;
}

/**
 * Verifies transactions for the pool, each ON ITS OWN against the same tip state (lisk-sdk
 * generator _verifyTransaction: a fresh context store per transaction, module verify hooks, then
 * the command's verify). `results[i]` belongs to `transactions[i]` and must equal what
 * StateMachine.verifyTransaction returns for it: OK (valid now), PENDING (valid later: a future
 * nonce) or FAIL with the error.
 *
 * Batching is safe because no result depends on another transaction of the batch: the state is
 * read-only and nothing accumulates. An implementation that verifies the batch's signatures at
 * once and sees the batch fail must find the bad signatures one by one, so that every
 * transaction still gets exactly its own result (and lisk-sdk's error message).
 *
 * The promise rejects only when the verifier itself cannot work (e.g. a worker died); the pool
 * then refuses the new transaction with 'verification-unavailable' and keeps the pooled ones.
 */
export interface PoolTransactionVerifier {
  verify(transactions: readonly Transaction[], tip: PoolTip): Promise<VerificationResult[]>;
}

/** Transactions verified between two yields to the event loop (a few ms of work). */
const YIELD_EVERY = 64;

/**
 * The main-thread verifier: the state machine, one transaction after another. Long batches (the
 * re-check after a block) yield to the event loop now and then so that RPC requests are still
 * served meanwhile.
 */
export class StateMachinePoolVerifier implements PoolTransactionVerifier {
  /**
   * With a `signatureVerifier` (the worker pool in a node), the signatures of the whole batch are
   * checked first, at once and off this thread; the state machine then skips those checks. The
   * results are the same either way (signatures-ahead.ts says why).
   */
  constructor(
    private readonly stateMachine: StateMachine,
    private readonly signatureVerifier?: SignatureVerifier,
  ) {}

  async verify(transactions: readonly Transaction[], tip: PoolTip): Promise<VerificationResult[]> {
    const header = { height: tip.height, timestamp: tip.timestamp };
    const verified = await verifySignaturesAhead(this.stateMachine, this.signatureVerifier, transactions, tip.state);
    const results: VerificationResult[] = [];
    for (let i = 0; i < transactions.length; i += 1) {
      if (i > 0 && i % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      results.push(
        await this.stateMachine.verifyTransaction(transactions[i] as Transaction, tip.state, header, new Map(), false, verified),
      );
    }
    return results;
  }
}

/** What `tipOf` needs from a chain (an OpenChain fits). */
export interface PoolTipSource {
  readonly stateDb: { readonly moduleReader: StateReader };
  readonly processor: { tipHeader(): { readonly height: number; readonly timestamp: number } };
}

/** The pool's tip function over a chain: its committed module state and last block header. */
export function tipOf(chain: PoolTipSource): () => PoolTip {
  return () => {
    const { height, timestamp } = chain.processor.tipHeader();
    return { state: chain.stateDb.moduleReader, height, timestamp };
  };
}
